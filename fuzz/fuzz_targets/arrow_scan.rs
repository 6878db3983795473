#![no_main]
//! Thin wrapper: the logic is `simdnbt_fuzz_logic::arrow_scan` (replayed on
//! stable by `cargo test -p simdnbt-fuzz-logic`).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| simdnbt_fuzz_logic::arrow_scan(data));
