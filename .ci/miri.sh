#!/usr/bin/env bash
# Miri over every path that uses `unsafe`: the library's unit tests and the
# Miri-sized integration tests in simdnbt/tests/miri.rs (valid, truncated and
# hostile input through the parser, borrow views, owned builder, writers,
# Drop/PartialEq, MUTF-8 and the byte-swap kernels). Installs what it lacks.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
rustup component add miri rust-src --toolchain nightly >/dev/null
cargo +nightly miri setup >/dev/null

start=$(date +%s)
# -Zmiri-strict-provenance: no integer-to-pointer casts anywhere.
MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-strict-provenance" \
  cargo +nightly miri test -p simdnbt@0.11.0 --lib --test miri
echo "miri: passed in $(( $(date +%s) - start )) s"
