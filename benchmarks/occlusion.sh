#!/usr/bin/env bash
# Line of sight against drawing, in one replay (docs/layout.md, "Occlusion"): the sample walk
# replayed with the default options (buildings from its POI source, --occlusion hide) and
# --stats, which times every sight line tested against the buildings and every frame's drawing
# (background, cards, HUD; not the PNG encoding) in the same run. Target: a frame's occlusion
# tests cost less than its drawing. Prints both per frame and their ratio; exits 1 if missed.
#   benchmarks/occlusion.sh [--log FILE] [--filter CATEGORIES] [--no-build]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/benchmarks/.work/occlusion"
log="$here/SampleLogs/walk.csv"
filter="cafe"
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --log) log="$2"; shift 2;;
    --filter) filter="$2"; shift 2;;
    --no-build) build=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
. "$here/benchmarks/release_poiar.sh"
rm -rf "$work"; mkdir -p "$work"
"$poiar" replay "$log" --filter "$filter" --out "$work/out" --stats --jobs 1 2> "$work/stderr.txt" >/dev/null
grep -E "buildings|occlusion:|labels:" "$work/stderr.txt" | sed 's/^poiar: //'
line=$(grep "occlusion:" "$work/stderr.txt")
occlusion=$(sed -E 's/.* ([0-9.]+) ms a frame; drawing.*/\1/' <<<"$line")
drawing=$(sed -E 's/.*drawing ([0-9.]+) ms a frame.*/\1/' <<<"$line")
ratio=$(awk -v o="$occlusion" -v d="$drawing" 'BEGIN { printf "%.4f", o / d }')
echo "occlusion tests per frame / drawing per frame = $occlusion ms / $drawing ms = $ratio (target < 1)"
rm -rf "$work"
awk -v r="$ratio" 'BEGIN { exit !(r < 1) }'
