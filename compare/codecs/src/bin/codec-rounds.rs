//! Every zlib chunk of the corpus regions inflated and deflated (levels 1-9)
//! by each codec, in rounds that interleave the codecs (the order rotating
//! each round), timed in this thread's CPU time. Prints a markdown table: the
//! median over rounds of each codec's MB of NBT per CPU-second, of its ratio
//! to zlib-rs in the same round, and the output size.
//!
//! ```text
//! cargo run --release -p compare-codecs --bin codec-rounds -- [ROUNDS] [LEVELS]
//! ```
//!
//! `LEVELS` is a comma list (default `1,2,3,4,5,6,7,8,9`).

use compare_codecs::{CODECS, Codecs, thread_cpu_ns, zlib_chunks};

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(5, |a| a.parse().expect("ROUNDS"));
    let levels: Vec<u32> = args.next().map_or((1..=9).collect(), |a| {
        a.split(',').map(|l| l.parse().expect("LEVELS")).collect()
    });

    let mut codecs = Codecs::new();
    let mut chunks: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for file in corpus::REGIONS {
        let region = corpus::load_as_shipped(file.name).unwrap_or_else(|e| panic!("{e}"));
        for data in zlib_chunks(region) {
            let nbt = simdnbt::compression::decompress(data)
                .expect("corpus chunk")
                .into_owned();
            chunks.push((data.to_vec(), nbt));
        }
    }
    let nbt_bytes: usize = chunks.iter().map(|(_, n)| n.len()).sum();
    let zlib_bytes: usize = chunks.iter().map(|(z, _)| z.len()).sum();
    eprintln!(
        "{} chunks, {nbt_bytes} bytes of NBT, {zlib_bytes} bytes as stored",
        chunks.len()
    );

    // Operations: inflate (None) and deflate at each level.
    let ops: Vec<Option<u32>> = std::iter::once(None)
        .chain(levels.iter().map(|&l| Some(l)))
        .collect();
    // rate[op][codec] per round, in MB of NBT per CPU-second.
    let mut rates = vec![vec![Vec::new(); CODECS.len()]; ops.len()];
    let mut sizes = vec![vec![0usize; CODECS.len()]; ops.len()];
    let mut scratch = vec![0u8; 1 << 22];
    let mut packed = Vec::new();
    for round in 0..rounds {
        for (o, op) in ops.iter().enumerate() {
            for k in 0..CODECS.len() {
                let c = (k + round + o) % CODECS.len();
                let codec = CODECS[c];
                let start = thread_cpu_ns();
                let mut size = 0;
                for (zlib, nbt) in &chunks {
                    match op {
                        None => {
                            codecs.inflate(codec, zlib, &mut scratch[..nbt.len()]);
                            size += zlib.len();
                        }
                        Some(level) => {
                            codecs.deflate(codec, *level, nbt, &mut packed);
                            size += packed.len();
                        }
                    }
                }
                let ns = thread_cpu_ns() - start;
                rates[o][c].push(nbt_bytes as f64 / 1e6 / (ns as f64 / 1e9));
                sizes[o][c] = size;
            }
        }
        eprintln!("round {} of {rounds} done", round + 1);
    }

    println!(
        "| operation | codec | MB of NBT / CPU-s (median) | vs zlib-rs (median of per-round ratios) | output bytes |"
    );
    println!("|---|---|---:|---:|---:|");
    for (o, op) in ops.iter().enumerate() {
        let name = match op {
            None => "inflate".to_string(),
            Some(l) => format!("deflate {l}"),
        };
        for (c, codec) in CODECS.iter().enumerate() {
            let ratios: Vec<f64> = (0..rounds)
                .map(|r| rates[o][c][r] / rates[o][0][r])
                .collect();
            let out = match op {
                None => "".to_string(),
                Some(_) => sizes[o][c].to_string(),
            };
            println!(
                "| {name} | {} | {:.0} | {:.2}× | {out} |",
                codec.name(),
                median(&rates[o][c]),
                median(&ratios),
            );
        }
    }
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}
