#!/usr/bin/env bash
# Instructions per operation, counted by callgrind (repeatable on a noisy box).
#
#   compare/icount.sh [FILE] [PEER...]      default: complex_player.dat, ours + key peers
#
# Prints a markdown table: peer | read | write | decode_all | edit | write_edited
# (instructions per call; edit = read, change 10 values, remove 2, insert 5, write;
# write_edited = write after one key was inserted into the root; "-" where a peer
# has no such operation).
# Needs valgrind (apt-get install valgrind). Nightly peers need
# ICOUNT_FEATURES=nightly-peers and ICOUNT_TOOLCHAIN=+nightly.
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-complex_player.dat}
shift || true
peers=("$@")
[ ${#peers[@]} -gt 0 ] || peers=(simdnbt_borrow simdnbt_owned simdnbt_doc na_nbt_borrow na_nbt_owned na_nbt_owned_be)
iterations=${ICOUNT_ITERATIONS:-200}
features=()
[ -n "${ICOUNT_FEATURES:-}" ] && features=(--features "$ICOUNT_FEATURES")
cargo ${ICOUNT_TOOLCHAIN:-} build -q --release -p compare --bin icount "${features[@]}"
bin=${CARGO_TARGET_DIR:-target}/release/icount
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

count() { # peer op -> instructions per call, or "-"
  if valgrind --tool=callgrind --toggle-collect='*icount*measured*' \
      --callgrind-out-file="$out/cg" "$bin" "$1" "$2" "$file" "$iterations" \
      >"$out/log" 2>&1; then
    total=$(grep -E '^(summary|totals):' "$out/cg" | head -1 | awk '{print $2}')
    echo $(( total / iterations ))
  else
    echo "-"
  fi
}

echo "| $file | read | write | decode_all | edit | write_edited |"
echo "|---|---:|---:|---:|---:|---:|"
for p in "${peers[@]}"; do
  echo "| $p | $(count "$p" read) | $(count "$p" write) | $(count "$p" decode_all) | $(count "$p" edit) | $(count "$p" write_edited) |"
done
