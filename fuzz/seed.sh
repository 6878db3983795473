#!/usr/bin/env bash
# Builds fuzz/corpus/<target>/ (gitignored) from the shared corpus (docs/format.md §5)
# and every docs/format.md §4 case. Run from anywhere; uses stable cargo.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo run --quiet -p simdnbt-fuzz-logic --features seeds --bin fuzz-seeds -- fuzz/corpus
