#!/usr/bin/env bash
# Miri over every path that uses `unsafe`: the library's unit tests and the
# Miri-sized integration tests in simdnbt/tests/miri.rs (valid, truncated and
# hostile input through the parser, borrow views, owned builder, writers,
# Drop/PartialEq, MUTF-8 and the byte-swap kernels). Installs what it lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
# This workspace's simdnbt (crates.io simdnbt 0.10 shares its name in Cargo.lock).
lib=(--manifest-path simdnbt/Cargo.toml)

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
rustup component add miri rust-src --toolchain nightly >/dev/null
cargo +nightly miri setup >/dev/null

# -Zmiri-strict-provenance: no integer-to-pointer casts anywhere.
export MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-strict-provenance"
start=$SECONDS

# Runs `cargo +nightly miri test ARGS…` and fails unless it ran exactly
# WANT tests (the sum over the test binaries), so a renamed or filtered-out
# test cannot turn a pass into a run of nothing.
miri_test() { # want args...
  local want=$1 log ran t=$SECONDS
  shift
  log=$(mktemp)
  cargo +nightly miri test "${lib[@]}" "$@" 2>&1 | tee "$log"
  ran=$(sed -nE 's/^test result: ok\. ([0-9]+) passed.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
  rm -f "$log"
  if [ "$ran" -lt "$want" ]; then
    echo "miri: expected at least $want tests to run, $ran ran ($*)" >&2
    exit 1
  fi
  echo "miri: $ran tests passed in $((SECONDS - t)) s ($*)"
}

# 1. Baseline x86-64 (SSE2 only: the scalar kernels and std's is_ascii).
miri_test 20 --lib --test miri

# 2. Miri reports exactly the target features a crate was compiled with, so
#    the SSSE3 and AVX2 kernels only run when enabled. Their exhaustive unit
#    tests take ~5 min under Miri; this runs the kernels on every length
#    around their vector widths, and one full document through the readers
#    and writers with AVX2 as the dispatched path (own target dir, so pass 1
#    stays cached). Selected by exact name, and counted: both must run.
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+ssse3,+avx2" \
  miri_test 2 --target-dir target/miri-avx2 --test miri -- --exact \
  kernels_agree_with_scalar_on_every_path every_type_reads_views_converts_and_writes_back

# 3. Other targets the README promises: 32-bit (i686) and big-endian (s390x).
#    Miri interprets them on this x86-64 machine from the nightly rust-src, so
#    no cross toolchain is needed. Own target dirs keep pass 1 cached.
for target in i686-unknown-linux-gnu s390x-unknown-linux-gnu; do
  echo "miri: $target"
  cargo +nightly miri setup --target "$target" >/dev/null
  miri_test 20 --target "$target" --target-dir "target/miri-$target" --lib --test miri
done

echo "miri: passed in $(( SECONDS - start )) s"
