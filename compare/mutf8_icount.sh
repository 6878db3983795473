#!/usr/bin/env bash
# Instructions per run of each MUTF-8 workload (compare/src/mutf8_cases.rs),
# counted by callgrind (repeatable on a noisy box):
#
#   compare/mutf8_icount.sh [CASE...]     default: every case
#
# Prints a markdown table: case | op | simdnbt | simd_cesu8 (instructions
# per pass over all the case's strings).
set -euo pipefail
cd "$(dirname "$0")/.."
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(short_ascii long_ascii bmp corpus_bmp mutf8_only corpus_mutf8_only)
iterations=${ICOUNT_ITERATIONS:-20}
cargo build -q --release -p compare --bin mutf8_icount
bin=${CARGO_TARGET_DIR:-target}/release/mutf8_icount
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

count() { # lib op case -> instructions per pass
  valgrind --tool=callgrind --toggle-collect='*mutf8_icount_measured*' \
    --callgrind-out-file="$out/cg" "$bin" "$1" "$2" "$3" "$iterations" >"$out/log" 2>&1
  total=$(grep -E '^(summary|totals):' "$out/cg" | head -1 | awk '{print $2}')
  # Two counted calls: 3 warm-up passes and `iterations` passes.
  echo $(( total / (iterations + 3) ))
}

echo "| case | op | simdnbt | simd_cesu8 |"
echo "|---|---|---:|---:|"
for c in "${cases[@]}"; do
  for op in decode decode_lossy encode; do
    echo "| $c | $op | $(count simdnbt "$op" "$c") | $(count simd_cesu8 "$op" "$c") |"
  done
done
