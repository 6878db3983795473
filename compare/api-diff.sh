#!/bin/sh
# Regenerates reports/api-diff.md: the public API of upstream simdnbt 0.10
# against this workspace's simdnbt, item by item, from rustdoc JSON.
#
# Needs the nightly toolchain (rustdoc's JSON output is unstable) and the
# registry (upstream simdnbt 0.10 is built in a scratch crate under target/).
# Exits non-zero if a difference is not listed in compare/api-diff/allowed.txt.
set -eu
cd "$(dirname "$0")/.."
out=target/api-diff
mkdir -p "$out/upstream/src"
cat > "$out/upstream/Cargo.toml" <<'TOML'
[package]
name = "upstream-api"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
simdnbt = "=0.10.0"
simdnbt-derive = "=0.10.0"

[workspace]
TOML
: > "$out/upstream/src/lib.rs"

json() { # crate spec, manifest, target dir
    CARGO_TARGET_DIR="$3" cargo +nightly rustdoc -q --manifest-path "$2" -p "$1" --lib \
        -- -Z unstable-options --output-format json
}
json simdnbt@0.10.0 "$out/upstream/Cargo.toml" "$out/upstream/target"
json simdnbt-derive@0.10.0 "$out/upstream/Cargo.toml" "$out/upstream/target"
json simdnbt@0.11.0 Cargo.toml "$out/ours"
json simdnbt-derive@0.11.0 Cargo.toml "$out/ours"

python3 compare/api-diff/api_diff.py \
    "$out/upstream/target/doc/simdnbt.json" "$out/ours/doc/simdnbt.json" \
    "$out/upstream/target/doc/simdnbt_derive.json" "$out/ours/doc/simdnbt_derive.json" \
    compare/api-diff/allowed.txt reports/api-diff.md
