//! Writes the fuzzers' seed corpora: `fuzz-seeds DIR` fills `DIR/<target>/`
//! with every shared corpus file (docs/format.md §5, inflated), every docs/format.md §4 read
//! case (the depth cases at 600 levels, enough to pass the limit of 512 while
//! keeping libFuzzer's `-max_len` small), and for `roundtrip` a few
//! structured-mode seeds. Run by `fuzz/seed.sh`.

use std::path::PathBuf;
use std::process::ExitCode;

use simdnbt_fuzz_logic::{TARGETS, hostile, roundtrip::STRUCTURED_SELECTOR};

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: fuzz-seeds DIR");
        return ExitCode::FAILURE;
    };
    let mut seeds: Vec<(String, Vec<u8>)> = Vec::new();
    for file in corpus::SHARED {
        match corpus::load(file.name) {
            Ok(bytes) => seeds.push((format!("corpus-{}", file.name), bytes.to_vec())),
            Err(e) => {
                eprintln!("fuzz-seeds: {}: {e}", file.name);
                return ExitCode::FAILURE;
            }
        }
    }
    for case in hostile::cases_with_depth(600) {
        seeds.push((format!("nbt4-{}", case.name), case.bytes));
    }
    for (target, _) in TARGETS {
        let out = dir.join(target);
        if let Err(e) = std::fs::create_dir_all(&out) {
            eprintln!("fuzz-seeds: {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
        let mut all = seeds.clone();
        match *target {
            "region" => all.extend(simdnbt_fuzz_logic::files::region_seeds()),
            "inflate" => all.extend(simdnbt_fuzz_logic::files::inflate_seeds()),
            // The corpus in both Bedrock forms too, so every direction starts
            // from real files; and the network form's hostile table.
            "bedrock" => {
                all.extend(seeds.iter().filter_map(|(name, bytes)| {
                    let le = simdnbt::bedrock::to_little_endian(bytes).ok()?;
                    Some((format!("le-{name}"), le))
                }));
                all.extend(seeds.iter().filter_map(|(name, bytes)| {
                    let net = simdnbt::bedrock::to_network(bytes).ok()?;
                    Some((format!("net-{name}"), net))
                }));
                all.extend(
                    testkit::hostile::network_cases_with_depth(600)
                        .into_iter()
                        .map(|c| (c.name.to_string(), c.bytes)),
                );
            }
            _ => {}
        }
        if *target == "roundtrip" || *target == "document_edit" {
            // Structured mode: selector byte, then bytes for the generator.
            let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
            for i in 0..32u8 {
                let mut s = vec![STRUCTURED_SELECTOR, i.wrapping_mul(4)];
                for _ in 0..(16 + 8 * i as usize) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    s.push(x as u8);
                }
                all.push((format!("structured-{i:02}"), s));
            }
        }
        if *target == "snbt" {
            // SNBT text: the corpus files printed, and one of each grammar rule.
            all.extend(simdnbt_fuzz_logic::snbt::text_seeds());
        }
        if *target == "json_roundtrip" {
            all.extend(simdnbt_fuzz_logic::json::seeds());
        }
        if *target == "chunk_sections" || *target == "arrow_scan" {
            all.extend(simdnbt_fuzz_logic::chunk::seeds());
            match region_chunks() {
                Ok(chunks) => all.extend(chunks),
                Err(e) => {
                    eprintln!("fuzz-seeds: 1.19.4.mca: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        if *target == "nbt_path" {
            all.extend(simdnbt_fuzz_logic::nbt_path::seeds());
        }
        for (name, bytes) in &all {
            if let Err(e) = std::fs::write(out.join(name), bytes) {
                eprintln!("fuzz-seeds: {name}: {e}");
                return ExitCode::FAILURE;
            }
        }
        println!("{}\t{} seeds", out.display(), all.len());
    }
    ExitCode::SUCCESS
}

/// Chunks of the corpus region file (1.19.4, inflated), every 16th one that
/// fits libFuzzer's default `-max_len` of 64 KiB.
fn region_chunks() -> Result<Vec<(String, Vec<u8>)>, Box<dyn std::error::Error>> {
    let region =
        simdnbt::region::Region::from_bytes(corpus::load_as_shipped("1.19.4.mca")?.to_vec())?;
    let mut seeds = Vec::new();
    for info in region.chunks().step_by(16) {
        let (x, z) = (i32::from(info.pos.x), i32::from(info.pos.z));
        if let Some(bytes) = region.chunk(x, z)? {
            if bytes.len() <= 65536 {
                seeds.push((format!("chunk-{x}-{z}"), bytes));
            }
        }
    }
    Ok(seeds)
}
