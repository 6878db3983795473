//! Cross-check with prismarine-nbt (npm), both ways, on every corpus file:
//! prismarine reads our little-endian and network output to the same values
//! as the Java original (`compare/crosscheck/prismarine.mjs`, which says how
//! values are compared), and prismarine's `little` and `littleVarint`
//! writing of that original is byte for byte our output and reads back as
//! our Java read.
//!
//! Runs only where `compare/crosscheck/node_modules` is installed (by
//! `compare/crosscheck/prismarine.sh`, which installs and runs this test);
//! otherwise it says how to enable it and passes. It never installs.
#![cfg(feature = "bedrock")]

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

use simdnbt::bedrock::{
    self, DetectedForm, from_network, to_big_endian, to_little_endian, to_network,
};
use simdnbt::owned;

/// Largest Java file checked unless `PRISMARINE_ALL` is set (as
/// `prismarine.sh` sets it): every shared and real-world corpus file, not the
/// generated 1 and 12 MB ones, which take node several CPU seconds; this way
/// the test costs about a CPU second.
const DEFAULT_MAX_BYTES: usize = 256 << 10;

fn crosscheck_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../compare/crosscheck")
}

/// Why the check cannot run here, if it cannot.
fn unavailable(dir: &Path) -> Option<String> {
    if !dir.join("node_modules/prismarine-nbt").is_dir() {
        return Some("compare/crosscheck/node_modules is not installed".into());
    }
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => None,
        _ => Some("node is not on PATH".into()),
    }
}

#[test]
fn prismarine_nbt_reads_our_bedrock_forms_and_we_read_its() {
    let script = crosscheck_dir();
    if let Some(why) = unavailable(&script) {
        eprintln!(
            "skipped: {why}; run compare/crosscheck/prismarine.sh (npm ci, then this test) to enable"
        );
        return;
    }
    let work = std::env::temp_dir().join(format!("simdnbt-prismarine-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let all = std::env::var_os("PRISMARINE_ALL").is_some();
    let (names, skipped): (Vec<&str>, Vec<&str>) = corpus::all_names()
        .partition(|name| all || corpus::load(name).map_or(true, |b| b.len() <= DEFAULT_MAX_BYTES));
    if !skipped.is_empty() {
        eprintln!(
            "not checked (over {DEFAULT_MAX_BYTES} bytes; PRISMARINE_ALL=1 checks them): {skipped:?}"
        );
    }
    for name in &names {
        let java = corpus::load(name).unwrap_or_else(|e| panic!("{e}"));
        let le = to_little_endian(java).unwrap_or_else(|e| panic!("{name}: {e}"));
        let net = to_network(java).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (ext, bytes) in [("java", java), ("le", &le[..]), ("net", &net[..])] {
            std::fs::write(work.join(format!("{name}.{ext}")), bytes).unwrap();
        }
    }

    let out = Command::new("node")
        .arg(script.join("prismarine.mjs"))
        .arg(&work)
        .output()
        .expect("run node");
    let report = String::from_utf8_lossy(&out.stdout);
    eprintln!("{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "prismarine-nbt disagrees (above)");

    // The other way: prismarine's writing of its parse (NAME.p-le, .p-net)
    // is byte for byte our own output, and reads back as our Java read.
    let mut failures = Vec::new();
    for name in &names {
        let java = corpus::load(name).unwrap();
        for (ours, theirs, form) in [
            ("le", "p-le", DetectedForm::LittleEndian),
            ("net", "p-net", DetectedForm::Network),
        ] {
            let read = |ext: &str| std::fs::read(work.join(format!("{name}.{ext}"))).unwrap();
            let bytes = read(theirs);
            if bytes != read(ours) {
                failures.push(format!("{name}.{theirs}: not the bytes of our .{ours}"));
            }
            if let Some(problem) = reads_as_java(&bytes, form, java) {
                failures.push(format!("{name}.{theirs}: {problem}"));
            }
        }
    }
    if std::env::var_os("PRISMARINE_KEEP").is_none() {
        std::fs::remove_dir_all(&work).ok();
    }
    assert!(
        failures.is_empty(),
        "prismarine's output, read by us:\n{}",
        failures.join("\n")
    );
}

/// Why the Bedrock `bytes` (of `form`) do not read as the document of `java`,
/// if they do not. A compound root is read into the owned tree and compared
/// with our Java read; another root (the owned tree holds compounds) is
/// transcoded back to Java and compared with our own LE round trip: the Java
/// file itself but for stringtest.nbt's 4-byte UTF-8 (see `bedrock.rs`).
fn reads_as_java(bytes: &[u8], form: DetectedForm, java: &[u8]) -> Option<String> {
    let network = form == DetectedForm::Network;
    if java[0] == 10 {
        let expected = owned::read(&mut Cursor::new(java)).unwrap();
        let mut cursor = Cursor::new(bytes);
        let read = if network {
            bedrock::owned::read_network(&mut cursor)
        } else {
            bedrock::owned::read_le(&mut cursor)
        };
        return match read {
            Ok(got) if got != expected => Some("a different document".to_owned()),
            Ok(_) if cursor.position() as usize != bytes.len() => {
                Some("bytes left over".to_owned())
            }
            Ok(_) => None,
            Err(e) => Some(e.to_string()),
        };
    }
    let back = if network {
        from_network(bytes)
    } else {
        to_big_endian(bytes)
    };
    match back {
        Ok(back) if back != to_big_endian(&to_little_endian(java).unwrap()).unwrap() => {
            Some("different Java bytes".to_owned())
        }
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    }
}
