#!/usr/bin/env bash
# Cross-check of simdnbt's Bedrock forms with prismarine-nbt (the version
# pinned in package.json and package-lock.json), on every corpus file: installs
# the package into compare/crosscheck/node_modules, then runs the cargo test
# `formats prismarine` (simdnbt/tests/formats/prismarine.rs, which drives
# prismarine.mjs) with PRISMARINE_ALL=1, so the large generated files are
# checked too.
#
#   compare/crosscheck/prismarine.sh            # npm ci from npm's cache, else the registry
#   compare/crosscheck/prismarine.sh --offline  # from npm's cache only (CI)
#
# Without node/npm, or when the install fails (offline, empty cache), it says
# so and exits 0: a missing tool is no failure of simdnbt's.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
offline_only=false
[ "${1:-}" = "--offline" ] && offline_only=true

skip() {
  echo "prismarine cross-check skipped: $1"
  exit 0
}
command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"

npm_ci=(npm ci --prefix "$here" --no-audit --no-fund)
if ! "${npm_ci[@]}" --offline; then
  "$offline_only" && skip "npm ci --offline failed (prismarine-nbt is not in npm's cache)"
  "${npm_ci[@]}" || skip "npm ci failed (no registry?)"
fi
echo "node $(node --version), prismarine-nbt $(node -p "require('$here/node_modules/prismarine-nbt/package.json').version")"

cd "$here/../.."
PRISMARINE_ALL=1 cargo test -p simdnbt --features bedrock \
  --test formats prismarine -- --nocapture
