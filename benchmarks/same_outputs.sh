#!/usr/bin/env bash
# Whether two poiar builds write the same outputs, byte for byte, on the sample data and the
# real recordings (a structural change must not change what poiar writes):
#   benchmarks/same_outputs.sh REFERENCE_POIAR [POIAR]
# Runs the walk replay (--report --truth --mcap --map), pose offline and --causal, the GoPro
# clip over its own video (--mcap), map, the Android drive replay (--report), two shards and
# merge, with each binary, then diffs the two output folders (frames, frames.jsonl, pose CSVs,
# report.html, MCAP, maps). Notices on stderr are kept apart and not compared (timings, paths).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
reference="$(realpath "$1")"
poiar="$(realpath "${2:-$here/.build/release/poiar}")"
drive="$here/../shared/data/phones/android-drive-leaf"
work="$(mktemp -d "${TMPDIR:-/tmp}/poiar-same.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$here"
run() {
  local p="$1" o="$2"
  mkdir -p "$o"
  "$p" replay SampleLogs/walk.csv --filter cafe --jobs 2 --out "$o/walk" --report --truth SampleLogs/walk.truth.csv \
    --mcap "$o/walk.mcap" --map 2>"$o/notices.walk"
  "$p" pose SampleLogs/walk.csv --out "$o/walk-pose.csv" 2>"$o/notices.pose"
  "$p" pose SampleLogs/walk.csv --causal --out "$o/walk-pose-causal.csv" 2>"$o/notices.causal"
  "$p" replay SampleLogs/gopro-walk.mp4 --pois SampleLogs/gopro-walk.demo-pois.csv --jobs 2 --out "$o/gopro" \
    --mcap "$o/gopro.mcap" 2>"$o/notices.gopro"
  "$p" map SampleLogs/walk.csv --filter cafe,restaurant --out "$o/walk-map.png" 2>"$o/notices.map"
  if [ -d "$drive" ]; then "$p" replay "$drive" --jobs 2 --out "$o/drive" --report 2>"$o/notices.drive"; fi
  for i in 0 1; do "$p" replay SampleLogs/walk.csv --filter cafe --out "$o/shards" --shard "$i/2" 2>/dev/null; done
  "$p" merge "$o/shards" 2>/dev/null
}
run "$reference" "$work/reference"
run "$poiar" "$work/this"
# The report's title is its folder's name, the same in both.
if diff -r -x 'notices.*' "$work/reference" "$work/this"; then echo "same outputs"; else echo "outputs differ"; exit 1; fi
