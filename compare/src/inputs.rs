//! Where the benches and tests get their inputs: the workspace `corpus` crate
//! (docs/format.md §5 shared files, inflated, plus the deterministic generated files).

/// The benchmark inputs: the seven upstream files, `chunk1.14.nbt`, then the generated ones.
pub fn bench_names() -> Vec<&'static str> {
    corpus::bench_names()
}

/// The inflated bytes of one input.
pub fn load(name: &str) -> Result<&'static [u8], String> {
    corpus::load(name).map_err(|e| e.to_string())
}
