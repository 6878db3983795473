//! Where the benches and tests get their inputs.
//!
//! TEMPORARY SHIM: the workspace crate `corpus` is being written on another branch.
//! Until it lands this module offers the same two functions, reading the shared
//! files (NBT.md §5) straight from the cargo registry sources and inflating gzip.
//! It has no generated inputs. Once `corpus` lands, this module just forwards to it.

use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

/// (file, package dir, path inside the package)
const FILES: &[(&str, &str, &str)] = &[
    (
        "complex_player.dat",
        "azalea-nbt-0.8.0",
        "tests/complex_player.dat",
    ),
    ("bigtest.nbt", "azalea-nbt-0.8.0", "tests/bigtest.nbt"),
    (
        "hello_world.nbt",
        "azalea-nbt-0.8.0",
        "tests/hello_world.nbt",
    ),
    ("hypixel.nbt", "simdnbt-0.10.0", "tests/hypixel.nbt"),
    ("inttest1023.nbt", "simdnbt-0.10.0", "tests/inttest1023.nbt"),
    ("level.dat", "azalea-nbt-0.8.0", "tests/level.dat"),
    (
        "simple_player.dat",
        "azalea-nbt-0.8.0",
        "tests/simple_player.dat",
    ),
    (
        "chunk1.14.nbt",
        "fastnbt-2.6.3",
        "src/test/resources/chunk1.14.nbt",
    ),
];

/// The benchmark inputs, in the order `corpus::bench_names()` will give them.
pub fn bench_names() -> Vec<&'static str> {
    FILES.iter().map(|f| f.0).collect()
}

/// The inflated bytes of one input.
pub fn load(name: &str) -> Result<&'static [u8], String> {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static [u8]>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(b) = cache.lock().unwrap().get(name) {
        return Ok(b);
    }
    let (_, pkg, rel) = FILES
        .iter()
        .find(|f| f.0 == name)
        .ok_or_else(|| format!("unknown input {name}"))?;
    let raw = read_from_registry(pkg, rel)?;
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{name}: gzip: {e}"))?;
        out
    } else {
        raw
    };
    let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    cache.lock().unwrap().insert(name.to_string(), leaked);
    Ok(leaked)
}

fn read_from_registry(pkg: &str, rel: &str) -> Result<Vec<u8>, String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .ok_or("no CARGO_HOME or HOME")?;
    let src = home.join("registry").join("src");
    for entry in std::fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))? {
        let p = entry.map_err(|e| e.to_string())?.path().join(pkg).join(rel);
        if p.is_file() {
            return std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()));
        }
    }
    Err(format!(
        "{pkg}/{rel} not in {} (run cargo fetch)",
        src.display()
    ))
}
