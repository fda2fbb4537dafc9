#!/usr/bin/env bash
# How often a run opens its inputs, and `poiar pose`'s speed against a reference build
# (docs/architecture.md, "One recording, opened once").
#
#   benchmarks/structure.sh [--poiar BIN] [--reference BIN] [--runs N] [--log LOG]
#
# 1. Opens: strace counts the openat calls on the sample walk (walk.csv), its OSM source and
#    the GoPro clip for `replay` (with and without --mcap and --map), `pose` and
#    `pose --causal`. Needs strace (apt install strace).
# 2. With --reference (another poiar binary, e.g. a release build of an earlier commit):
#    `poiar pose LOG` offline and --causal, the two binaries run alternately N times each;
#    prints the median wall times and new/reference.
# Both binaries should be release builds (swift build -c release --product poiar).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
poiar="$here/.build/release/poiar"
reference=""
runs=5
log="$here/../shared/data/broad/02_undisturbed_slow_rotation_B.csv.gz"
while [ $# -gt 0 ]; do
  case "$1" in
    --poiar) poiar="$2"; shift 2;;
    --reference) reference="$2"; shift 2;;
    --runs) runs="$2"; shift 2;;
    --log) log="$2"; shift 2;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
[ -x "$poiar" ] || { echo "no $poiar: run swift build -c release --product poiar" >&2; exit 1; }
command -v strace >/dev/null || { echo "strace is missing: apt install strace" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/poiar-structure.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$here"

# opens NAME ARGS...: the number of openat calls on each input of the run.
opens() {
  local name="$1"; shift
  strace -f -qq -e trace=openat,open -o "$work/trace" "$poiar" "$@" >/dev/null 2>&1 || true
  printf '%-34s walk.csv %s  esplanadi.osm %s  gopro-walk.mp4 %s\n' "$name" \
    "$(grep -c 'walk.csv"' "$work/trace" || true)" "$(grep -c 'esplanadi.osm"' "$work/trace" || true)" \
    "$(grep -c 'gopro-walk.mp4"' "$work/trace" || true)"
  rm -rf "$work/out" "$work"/*.mcap "$work"/*.csv "$work/trace"
}
echo "## Opens per run"
opens "replay walk" replay SampleLogs/walk.csv --filter cafe --jobs 2 --out "$work/out"
opens "replay walk --mcap --map --report" replay SampleLogs/walk.csv --filter cafe --jobs 2 --out "$work/out" \
  --mcap "$work/w.mcap" --map --report
opens "replay walk --causal --mcap" replay SampleLogs/walk.csv --filter cafe --jobs 2 --causal --out "$work/out" --mcap "$work/w.mcap"
opens "replay gopro-walk.mp4 --mcap" replay SampleLogs/gopro-walk.mp4 --pois SampleLogs/gopro-walk.demo-pois.csv --jobs 2 \
  --out "$work/out" --mcap "$work/g.mcap"
opens "pose walk" pose SampleLogs/walk.csv --out "$work/p.csv"
opens "pose walk --causal" pose SampleLogs/walk.csv --causal --out "$work/p.csv"

[ -n "$reference" ] || exit 0
[ -x "$reference" ] || { echo "no $reference" >&2; exit 1; }
echo
echo "## poiar pose $(basename "$log"), $runs runs each, alternating"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for mode in offline causal; do
  extra=(); [ "$mode" = causal ] && extra=(--causal)
  : > "$work/new"; : > "$work/ref"
  for _ in $(seq "$runs"); do
    for which in new ref; do
      bin="$poiar"; [ "$which" = ref ] && bin="$reference"
      start=$(date +%s.%N)
      "$bin" pose "$log" "${extra[@]}" --out "$work/p.csv" 2>/dev/null
      echo "$(date +%s.%N) - $start" | bc >> "$work/$which"
    done
  done
  new=$(median < "$work/new"); ref=$(median < "$work/ref")
  printf '%-8s this build %.3f s   reference %.3f s   ratio %.3f\n' "$mode" "$new" "$ref" "$(echo "$new / $ref" | bc -l)"
done
