#!/usr/bin/env bash
# Miri over every path that uses `unsafe`: the library's unit tests and the
# Miri-sized integration tests in simdnbt/tests/miri.rs (valid, truncated and
# hostile input through the parser, borrow views, owned builder, writers,
# Drop/PartialEq, MUTF-8 and the byte-swap kernels). Installs what it lacks.
#
# Five passes in two lanes at once (MIRI_JOBS=1: one after another): Miri
# interprets a test binary on one host thread, so two passes on a 2-core
# machine take about the time of one. Each pass's output goes to a log; its
# summary line is printed when it ends, the log's end when it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
lib=(-p simdnbt)
jobs="${MIRI_JOBS:-2}"

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
rustup component add miri rust-src --toolchain nightly >/dev/null
cargo +nightly miri setup >/dev/null
for target in i686-unknown-linux-gnu s390x-unknown-linux-gnu; do
  cargo +nightly miri setup --target "$target" >/dev/null
done

# -Zmiri-strict-provenance: no integer-to-pointer casts anywhere.
export MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-strict-provenance"
start=$SECONDS
logs=$(mktemp -d)

# miri_test NAME WANT ARGS...: runs `cargo +nightly miri test ARGS…` into
# $logs/NAME.log and fails unless at least WANT tests passed (summed over the
# test binaries), so a renamed or filtered-out test cannot turn a pass into a
# run of nothing.
miri_test() {
  local name=$1 want=$2 ran t=$SECONDS
  shift 2
  if ! cargo +nightly miri test "${lib[@]}" "$@" >"$logs/$name.log" 2>&1; then
    tail -n 60 "$logs/$name.log"
    echo "miri: $name FAILED after $((SECONDS - t)) s (log above)"
    return 1
  fi
  ran=$(sed -nE 's/^test result: ok\. ([0-9]+) passed.*/\1/p' "$logs/$name.log" | awk '{s += $1} END {print s + 0}')
  if [ "$ran" -lt "$want" ]; then
    grep -E '^(running|test result)' "$logs/$name.log"
    echo "miri: $name FAILED: expected at least $want tests to run, $ran ran"
    return 1
  fi
  echo "miri: $name: $ran tests passed in $((SECONDS - t)) s"
}

# 1. Baseline x86-64 (SSE2 only: the scalar kernels and std's is_ascii).
pass_baseline() { miri_test baseline 50 --lib --test miri; }

# 2. Miri reports exactly the target features a crate was compiled with, so
#    the SSSE3 and AVX2 kernels only run when enabled. Their exhaustive unit
#    tests take ~5 min under Miri; this runs the kernels on every length
#    around their vector widths, and one full document through the readers
#    and writers with AVX2 as the dispatched path. Selected by exact name,
#    and counted: both must run.
pass_avx2() {
  RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+ssse3,+avx2" \
    miri_test avx2 2 --target-dir target/miri-avx2 --test miri -- --exact \
    kernels_agree_with_scalar_on_every_path every_type_reads_views_converts_and_writes_back
}

# 2b. The little-endian document (feature `bedrock`, not a default one): its
#     SSE2 string check and one read and write-back, by exact name. In
#     pass 1's target dir: only simdnbt itself is rebuilt for the feature.
pass_bedrock() {
  miri_test bedrock 2 --features bedrock --lib -- --exact \
    document::tests::the_utf8_check_finds_exactly_the_bytes_mutf8_writes_otherwise \
    document::tests::a_little_endian_document_reads_and_writes_back
}

# 3. Other targets the README promises: 32-bit (i686) and big-endian (s390x).
#    Miri interprets them on this x86-64 machine from the nightly rust-src, so
#    no cross toolchain is needed. What differs there is pointer width and
#    byte order, so these passes build the core alone (no default features:
#    the parser, tape, views, owned and document models, writers, MUTF-8,
#    kernels; compression, SNBT and paths are safe code over it, and serde's
#    one `unsafe`, a UTF-8 view of checked bytes, does not depend on the
#    target: pass 1 runs them) and run tests/miri.rs only: it drives every
#    `unsafe` path (reads of valid, truncated and hostile input, views,
#    owned and document building and edits, writers, MUTF-8, the kernels)
#    on inputs sized for Miri (13 tests: the serde one needs a default
#    feature), the byte-swap and MUTF-8 kernels against the scalar code
#    among them. The unit tests, which pass 1 runs, would make these two
#    passes the longest lane of the slow stage (545 s + 445 s in one run).
pass_target() { # target [libtest args]
  local target=$1
  shift
  miri_test "$target" 13 --target "$target" --target-dir "target/miri-$target" \
    --no-default-features --test miri -- "$@"
}

pass_i686() { pass_target i686-unknown-linux-gnu; }
pass_s390x() { pass_target s390x-unknown-linux-gnu; }

# lane PASS...: runs passes one after another, failing if any failed.
lane() {
  local rc=0 pass
  for pass in "$@"; do
    "$pass" || rc=1
  done
  return "$rc"
}

failed=0
if [ "$jobs" -ge 2 ]; then
  # Two lanes: the baseline (every unit test: the longest pass); the
  # others, each a few minutes.
  lane pass_baseline &
  first=$!
  lane pass_avx2 pass_bedrock pass_s390x pass_i686 &
  second=$!
  wait "$first" || failed=1
  wait "$second" || failed=1
else
  lane pass_baseline pass_avx2 pass_bedrock pass_s390x pass_i686 || failed=1
fi
rm -rf "$logs"
if [ "$failed" -ne 0 ]; then
  echo "miri: FAILED in $(( SECONDS - start )) s"
  exit 1
fi
echo "miri: passed in $(( SECONDS - start )) s"
