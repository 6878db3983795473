#!/usr/bin/env bash
# CI smoke for the fuzz targets: installs cargo-fuzz and nightly if missing,
# builds the seed corpora, then runs every target for a bounded time
# (AddressSanitizer, cargo-fuzz's default) and exits non-zero if any crashed.
#
#   fuzz/smoke.sh                    # every target of fuzz/Cargo.toml, 60 s each, two at a time
#   FUZZ_SECONDS=600 FUZZ_LOG_DIR=/tmp/fuzz-long fuzz/smoke.sh   # the report run
#   fuzz/smoke.sh roundtrip          # only the named targets
#
# The targets are `cargo fuzz list` (the [[bin]]s of fuzz/Cargo.toml), so a new
# target is fuzzed without editing this script. A target fails if it crashed,
# or if it did not report at least one run (libFuzzer's `Done N runs`): a
# target that never executed an input proves nothing.
#
# Environment: FUZZ_SECONDS (default 60), FUZZ_JOBS (targets at once, default 2:
# the CI box has 2 cores), FUZZ_LOG_DIR (default: a new /tmp/fuzz-smoke.* dir),
# FUZZ_MAX_LEN (libFuzzer -max_len, default 65536).
# Logs: $FUZZ_LOG_DIR/<target>.log; `fuzz/report.sh $FUZZ_LOG_DIR` summarises them.
# A crash leaves its input in fuzz/artifacts/<target>/; see fuzz/README.md.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
secs="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-2}"
max_len="${FUZZ_MAX_LEN:-65536}"
logdir="${FUZZ_LOG_DIR:-$(mktemp -d /tmp/fuzz-smoke.XXXXXX)}"
mkdir -p "$logdir"
start=$(date +%s)

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "smoke: installing cargo-fuzz"
    cargo install cargo-fuzz --locked || exit 1
fi
if ! rustup toolchain list | grep -q '^nightly'; then
    echo "smoke: installing nightly"
    rustup toolchain install nightly --profile minimal || exit 1
fi

list="$(cargo +nightly fuzz list)" || { echo "smoke: cargo fuzz list failed"; exit 1; }
mapfile -t known <<<"$list"
if [ -z "$list" ]; then
    echo "smoke: cargo fuzz list found no targets in fuzz/Cargo.toml"
    exit 1
fi
if [ "$#" -gt 0 ]; then
    targets=("$@")
    for t in "${targets[@]}"; do
        if ! printf '%s\n' "${known[@]}" | grep -qx -- "$t"; then
            echo "smoke: no fuzz target '$t' (targets: ${known[*]})"
            exit 1
        fi
    done
else
    targets=("${known[@]}")
fi

fuzz/seed.sh >/dev/null || { echo "smoke: seed build failed"; exit 1; }
echo "smoke: building targets (nightly, ASan)"
cargo +nightly fuzz build >"$logdir/build.log" 2>&1 || {
    tail -n 40 "$logdir/build.log"
    echo "smoke: build failed"
    exit 1
}
{
    rustc +nightly --version
    cargo fuzz --version
    git rev-parse HEAD 2>/dev/null || true
    echo "seconds=$secs max_len=$max_len jobs=$jobs"
} >"$logdir/toolchain.txt"

run_one() {
    local t="$1"
    # -rss_limit_mb: readers must stay within a small multiple of the input.
    cargo +nightly fuzz run "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$secs" -max_len="$max_len" -rss_limit_mb=2048 \
        -timeout=30 -print_final_stats=1 >"$logdir/$t.log" 2>&1
    echo $? >"$logdir/$t.rc"
}

running=0
for t in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    echo "smoke: fuzzing $t for ${secs}s"
    run_one "$t" &
    running=$((running + 1))
done
wait

failed=0
for t in "${targets[@]}"; do
    rc="$(cat "$logdir/$t.rc" 2>/dev/null || echo missing)"
    stats="$(grep -E '^Done [0-9]+ runs' "$logdir/$t.log" | tail -n 1)"
    runs="$(sed -nE 's/^Done ([0-9]+) runs.*/\1/p' <<<"$stats")"
    if [ "$rc" = "0" ] && [ "${runs:-0}" -gt 0 ]; then
        echo "smoke: $t ok: $stats"
    elif [ "$rc" = "0" ]; then
        failed=1
        echo "smoke: $t FAILED: no input ran (no 'Done N runs' with N > 0 in $logdir/$t.log):"
        tail -n 20 "$logdir/$t.log"
    else
        failed=1
        echo "smoke: $t FAILED (exit $rc); log $logdir/$t.log:"
        grep -E -A 12 "panicked|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY" "$logdir/$t.log" | head -n 40
        ls -1 "fuzz/artifacts/$t" 2>/dev/null | sed 's/^/  artifact: fuzz\/artifacts\/'"$t"'\//'
    fi
done
echo "smoke: ${#targets[@]} targets, $(($(date +%s) - start))s total, logs in $logdir"
exit "$failed"
