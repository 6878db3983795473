#!/usr/bin/env bash
# Instructions per operation, counted by callgrind (repeatable on a noisy box),
# through the one driver binary `icount` (compare/icount/src/main.rs).
#
#   compare/icount.sh [FILE] [PEER...]      the compare bench's read/write/decode_all,
#                                           edit, write_edited ("-": no such operation)
#                                           default: complex_player.dat, the floor,
#                                           ours + key peers
#   compare/icount.sh --serde [FILE]        typed serde read/write (complex_player.dat or level.dat),
#                                           and simdnbt's read into owned fields and an owned root
#   compare/icount.sh --mutf8 [CASE...]     MUTF-8 decode/decode_lossy/encode, simdnbt vs simd_cesu8
#   compare/icount.sh --snbt [FILE...]      SNBT print of the tree and read of simdnbt's text,
#                                           simdnbt vs valence_nbt and quartz_nbt
#                                           (default: generated_unicode_1m)
#   compare/icount.sh --region [READER...]  every chunk of 1.19.4.mca, per reader
#                                           (floor_parse: the floor over the inflated chunks)
#   compare/icount.sh --bedrock [FILE]      FILE converted to the Bedrock forms: the document's
#                                           and owned reads and network writes, transcodes to
#                                           Java, vs na_nbt's LE read
#   compare/icount.sh --locate [FILE...]    path::locate_error over valid files (the core
#                                           with the error locator's sink, to the end)
#   compare/icount.sh --builds [FILE...]    the read in each of the four builds below, one row
#                                           per build and file (default: complex_player.dat,
#                                           hypixel.nbt, level.dat); readers from ICOUNT_READERS
#                                           (default "simdnbt_borrow na_nbt_borrow"), the last
#                                           column the first reader's count ÷ the last's
#
# Prints a markdown table of instructions per call (per pass over all of a
# MUTF-8 case's strings; per read of the whole region file). Needs valgrind
# (apt-get install valgrind). Nightly peers need ICOUNT_FEATURES=nightly-peers
# and ICOUNT_TOOLCHAIN=+nightly: the driver is then built from
# compare/nightly/Cargo.toml (a workspace of its own, its target folder
# compare/nightly/target unless CARGO_TARGET_DIR is set). ICOUNT_ITERATIONS
# sets the counted calls.
#
# ICOUNT_BUILD picks the code generation, as the builds users make (each in a
# target folder of its own, target/icount-NAME, unless CARGO_TARGET_DIR is set):
#   bench          the default: the bench profile (fat LTO, one codegen unit)
#   fat16          fat LTO, 16 codegen units
#   release        a dependent crate's default `cargo build --release` (no
#                  cross-crate LTO, 16 codegen units): the workspace's crates
#                  are separate crates there too, so this is that build
#   nightly-fat16  fat LTO, 16 codegen units, on nightly (ICOUNT_TOOLCHAIN)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=nbt
case "${1:-}" in
  --serde | --mutf8 | --snbt | --region | --bedrock | --locate | --builds | --reads)
    mode=${1#--}; shift ;;
  -h | --help) sed -n '2,43p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
# The readers of --builds and --reads.
read -ra readers <<<"${ICOUNT_READERS:-simdnbt_borrow na_nbt_borrow}"
if [ "$mode" = builds ]; then
  # Each build is this script again (`--reads`, one row per file), so each
  # gets the build's environment and target folder as ICOUNT_BUILD gives it.
  [ "$#" -gt 0 ] || set -- complex_player.dat hypixel.nbt level.dat
  head="| build | file |"
  rule="|---|---|"
  for r in "${readers[@]}"; do head+=" $r |"; rule+="---:|"; done
  echo "$head ${readers[0]} ÷ ${readers[-1]} |"
  echo "$rule---:|"
  for b in bench release fat16 nightly-fat16; do
    ICOUNT_BUILD=$b "$0" --reads "$@" | sed "s/^/| $b /"
  done
  exit 0
fi
build=${ICOUNT_BUILD:-bench}
case $build in
  bench) ;;
  fat16) export CARGO_PROFILE_BENCH_CODEGEN_UNITS=16 ;;
  release) export CARGO_PROFILE_BENCH_LTO=false CARGO_PROFILE_BENCH_CODEGEN_UNITS=16 ;;
  nightly-fat16) export CARGO_PROFILE_BENCH_CODEGEN_UNITS=16
                 ICOUNT_TOOLCHAIN=${ICOUNT_TOOLCHAIN:-+nightly} ;;
  *) echo "icount.sh: unknown ICOUNT_BUILD $build (bench, fat16, release, nightly-fat16)" >&2
     exit 2 ;;
esac
[ "$build" = bench ] || export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/icount-$build}
package=(-p compare-icount)
target=target
case ",${ICOUNT_FEATURES:-}," in
  *,nightly-peers,*) package=(--manifest-path compare/nightly/Cargo.toml --bin icount)
                     target=compare/nightly/target ;;
esac
features=()
[ -n "${ICOUNT_FEATURES:-}" ] && features=(--features "$ICOUNT_FEATURES")
# The bench profile: the benches' codegen, with the line tables callgrind reads.
cargo ${ICOUNT_TOOLCHAIN:-} build -q --profile bench "${package[@]}" "${features[@]}"
bin=${CARGO_TARGET_DIR:-$target}/release/icount
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Copies and fills counted as the instructions the hardware retires. glibc's
# memcpy and memset switch to `rep movsb` / `rep stosb` above a size
# threshold (2 KiB and more, by CPU), one instruction to the hardware's
# counters but one per byte to callgrind's (it counts every iteration of a
# rep-prefixed instruction): a 36 KiB input copied once counted 36,698
# "instructions", more than the parse that followed. With the thresholds
# past any size here glibc copies with its vector loop, whose instructions
# both count alike. Every peer runs the same way.
rep_tunables=glibc.cpu.x86_rep_movsb_threshold=281474976710656:glibc.cpu.x86_rep_stosb_threshold=281474976710656
count() { # iterations args... -> instructions per call, or "-" (the log says why)
  local n=$1
  shift
  if GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}$rep_tunables \
      valgrind --tool=callgrind --toggle-collect='*icount*measured*' \
      --callgrind-out-file="$out/cg" "$bin" "$@" "$n" >"$out/log" 2>&1; then
    total=$(grep -E '^(summary|totals):' "$out/cg" | head -1 | awk '{print $2}')
    echo $(( total / n ))
  else
    sed 's/^/  /' "$out/log" | tail -n 3 >&2
    echo "-"
  fi
}

case $mode in
  nbt)
    file=${1:-complex_player.dat}
    shift || true
    peers=("$@")
    [ ${#peers[@]} -gt 0 ] || peers=(floor simdnbt_borrow simdnbt_owned simdnbt_doc na_nbt_borrow na_nbt_owned na_nbt_owned_be)
    n=${ICOUNT_ITERATIONS:-200}
    # edit = read, change 10 values, remove 2, insert 5, write;
    # write_edited = write after one key was inserted into the root.
    echo "| $file | read | write | decode_all | edit | write_edited |"
    echo "|---|---:|---:|---:|---:|---:|"
    for p in "${peers[@]}"; do
      row="| $p"
      for op in read write decode_all edit write_edited; do
        row+=" | $(count "$n" nbt "$p" "$op" "$file")"
      done
      echo "$row |"
    done
    ;;
  serde)
    file=${1:-complex_player.dat}
    n=${ICOUNT_ITERATIONS:-200}
    echo "| peer ($file) | read | write |"
    echo "|---|---:|---:|"
    for p in simdnbt fastnbt quartz hematite; do
      echo "| $p | $(count "$n" serde "$p" read "$file") | $(count "$n" serde "$p" write "$file") |"
    done
    # simdnbt into its owned tree: a struct with owned fields, the whole document.
    echo "| simdnbt, owned fields | $(count "$n" serde simdnbt read_owned "$file") | - |"
    echo "| simdnbt, owned::BaseNbt | $(count "$n" serde simdnbt read_owned_root "$file") | - |"
    ;;
  mutf8)
    cases=("$@")
    [ ${#cases[@]} -gt 0 ] || cases=(short_ascii long_ascii bmp corpus_bmp mutf8_only corpus_mutf8_only) # mutf8_cases::CASE_NAMES
    n=${ICOUNT_ITERATIONS:-20}
    echo "| case | op | simdnbt | simd_cesu8 |"
    echo "|---|---|---:|---:|"
    for c in "${cases[@]}"; do
      for op in decode decode_lossy encode; do
        echo "| $c | $op | $(count "$n" mutf8 simdnbt "$op" "$c") | $(count "$n" mutf8 simd_cesu8 "$op" "$c") |"
      done
    done
    ;;
  snbt)
    [ "$#" -gt 0 ] || set -- generated_unicode_1m
    echo "| file | op | simdnbt | valence | quartz |"
    echo "|---|---|---:|---:|---:|"
    for f in "$@"; do
      # The generated files are about 1 MiB: a few calls are enough.
      case $f in generated_*) n=${ICOUNT_ITERATIONS:-3} ;; *) n=${ICOUNT_ITERATIONS:-100} ;; esac
      for op in write read; do
        row="| $f | $op"
        for p in simdnbt valence quartz; do
          row+=" | $(count "$n" snbt "$p" "$op" "$f")"
        done
        echo "$row |"
      done
    done
    ;;
  locate)
    [ "$#" -gt 0 ] || set -- complex_player.dat
    n=${ICOUNT_ITERATIONS:-200}
    echo "| file | instructions per locate_error |"
    echo "|---|---:|"
    for f in "$@"; do
      echo "| $f | $(count "$n" locate "$f") |"
    done
    ;;
  bedrock)
    file=${1:-complex_player.dat}
    n=${ICOUNT_ITERATIONS:-200}
    echo "| reader ($file in a Bedrock form) | instructions per call |"
    echo "|---|---:|"
    for r in simdnbt_doc_le simdnbt_le_owned simdnbt_doc_net simdnbt_net_owned simdnbt_le_to_java simdnbt_net_to_java na_nbt_le_owned simdnbt_doc_net_write simdnbt_net_owned_write; do
      echo "| $r | $(count "$n" bedrock "$r" "$file") |"
    done
    ;;
  reads) # --builds' rows for the build in ICOUNT_BUILD: "| FILE | n... | ratio |"
    n=${ICOUNT_ITERATIONS:-100}
    for f in "$@"; do
      row="| $f"
      counts=()
      for r in "${readers[@]}"; do
        counts+=("$(count "$n" nbt "$r" read "$f")")
        row+=" | ${counts[-1]}"
      done
      ratio=$(awk -v a="${counts[0]}" -v b="${counts[-1]}" \
        'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }')
      echo "$row | $ratio |"
    done
    ;;
  region)
    readers=("$@")
    [ ${#readers[@]} -gt 0 ] || readers=(simdnbt_borrow simdnbt_owned fastanvil_fastnbt valence)
    n=${ICOUNT_ITERATIONS:-2}
    echo "| reader (1.19.4.mca) | instructions per read |"
    echo "|---|---:|"
    for r in "${readers[@]}"; do
      echo "| $r | $(count "$n" region "$r") |"
    done
    ;;
esac
