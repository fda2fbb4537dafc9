#!/usr/bin/env bash
# Builds one libFuzzer target of poiar's readers with AddressSanitizer and runs it.
#
#   bash fuzz/run.sh TARGET SECONDS [extra libFuzzer options]
#   TARGET: log | phone | pbf | json | osmxml | source
#
# Builds fuzz/ (its own package, which depends on the main package by path) in release mode
# with `-sanitize=fuzzer,address` (fuzz/toolset.json) into fuzz/.build, seeds fuzz/.work/TARGET/seeds from the
# test fixtures and sample logs (small cuts of them), and runs libFuzzer on
# fuzz/.work/TARGET/corpus for SECONDS seconds with a 10 s per-input time-out and a 2 GiB
# memory limit. Crash, time-out and out-of-memory inputs land in fuzz/.work/TARGET/
# (crash-*, timeout-*, oom-*); the log is fuzz/.work/TARGET/fuzz.log. Exits non-zero when
# libFuzzer found something. Environment: FUZZ_NICE (default 10), FUZZ_RSS_MB (2048),
# FUZZ_TIMEOUT (10), FUZZ_NO_BUILD=1 to skip the build.
set -euo pipefail
cd "$(dirname "$0")"
FUZZ_DIR=$PWD
ROOT=$(cd .. && pwd)

usage() { echo "usage: bash fuzz/run.sh log|phone|pbf|json|osmxml|source SECONDS [libFuzzer options]" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
target=$1; seconds=$2; shift 2
[[ $seconds =~ ^[0-9]+$ ]] || usage
case $target in
  log) product=FuzzLog; max_len=65536 ;;
  phone) product=FuzzPhone; max_len=131072 ;;
  pbf) product=FuzzPBF; max_len=65536 ;;
  json) product=FuzzJSON; max_len=65536 ;;
  osmxml) product=FuzzOSMXML; max_len=65536 ;;
  source) product=FuzzSource; max_len=65536 ;;
  *) usage ;;
esac

nice_level=${FUZZ_NICE:-10}
if [[ ${FUZZ_NO_BUILD:-0} != 1 ]]; then
  # toolset.json adds -sanitize=fuzzer,address to every Swift compile and link, and links with
  # lld (gold fails on these binaries: "internal error in format_file_lineno").
  nice -n "$nice_level" swift build --package-path "$FUZZ_DIR" --scratch-path "$FUZZ_DIR/.build" -c release \
    --toolset "$FUZZ_DIR/toolset.json" --product "$product" >&2
fi
binary=$FUZZ_DIR/.build/release/$product

work=$FUZZ_DIR/.work/$target
mkdir -p "$work/seeds" "$work/corpus"
bash "$FUZZ_DIR/seeds.sh" "$target" "$ROOT" "$work/seeds"

cd "$work"
# Swift's own crash backtracer reads memory that AddressSanitizer guards: leave crashes to ASan.
export SWIFT_BACKTRACE=enable=no
# Leaks that LeakSanitizer finds in the toolchain's libraries (FoundationXML's error objects, …)
# are listed in fuzz/lsan.supp; any other leak is a finding.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$FUZZ_DIR/lsan.supp:print_suppressions=0}
set +e
nice -n "$nice_level" "$binary" corpus seeds \
  -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
  -max_len="$max_len" -print_final_stats=1 "$@" 2>&1 | tee fuzz.log | grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|SUMMARY|stat::|Test unit written" >&2
status=${PIPESTATUS[0]}
set -e
echo "fuzz: $target: libFuzzer exit $status; log $work/fuzz.log; corpus $(ls corpus | wc -l) inputs" >&2
exit "$status"
