#!/usr/bin/env bash
# Instructions per typed serde read/write, counted by callgrind (repeatable on
# a noisy box), for the peers of benches/serde.rs.
#
#   compare/serde_icount.sh [FILE]      default: complex_player.dat (or level.dat)
#
# Prints a markdown table: peer | read | write (instructions per call).
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-complex_player.dat}
iterations=${ICOUNT_ITERATIONS:-200}
cargo build -q --release -p compare --bin serde_icount
bin=${CARGO_TARGET_DIR:-target}/release/serde_icount
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

count() { # peer op -> instructions per call
  valgrind --tool=callgrind --toggle-collect='*serde_icount*measured*' \
      --callgrind-out-file="$out/cg" "$bin" "$1" "$2" "$file" "$iterations" >"$out/log" 2>&1
  total=$(grep -E '^(summary|totals):' "$out/cg" | head -1 | awk '{print $2}')
  echo $(( total / iterations ))
}

echo "| peer ($file) | read | write |"
echo "|---|---|---|"
for peer in simdnbt fastnbt quartz hematite; do
  echo "| $peer | $(count "$peer" read) | $(count "$peer" write) |"
done
