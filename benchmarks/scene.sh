#!/usr/bin/env bash
# The map scene's cost (docs/rendering.md, "The map scene"): the sample walk replayed with
# --scene plain (sky and ground, as before the scene) and --scene map (the buildings around the
# camera), alternately, in the same run, on one render thread (--jobs 1), each the best of
# --runs. A frame's time is the whole replay's wall time over its frames (fusion, labels,
# drawing and PNG encoding: how long a frame takes to come out); the drawing alone (background,
# cards, HUD; from --stats) is printed beside it. Target: frame time with the scene at most
# 1.3× without; exits 1 if missed.
#   benchmarks/scene.sh [--log FILE] [--filter CATEGORIES] [--runs N] [--no-build]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/benchmarks/.work/scene"
log="$here/SampleLogs/walk.csv"
filter="cafe"
runs=3
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --log) log="$2"; shift 2;;
    --filter) filter="$2"; shift 2;;
    --runs) runs="$2"; shift 2;;
    --no-build) build=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
. "$here/benchmarks/release_poiar.sh"
rm -rf "$work"; mkdir -p "$work"

# One replay with --scene $1: prints "frames wall_ms drawing_ms_a_frame".
replay() {
  local start end
  start=$(date +%s%N)
  "$poiar" replay "$log" --filter "$filter" --scene "$1" --out "$work/$1" --stats --jobs 1 2> "$work/$1.txt" >/dev/null
  end=$(date +%s%N)
  local frames drawing
  frames=$(ls "$work/$1" | grep -c '^frame_.*\.png$')
  drawing=$(sed -nE 's/.*drawing ([0-9.]+) ms a frame.*/\1/p' "$work/$1.txt")
  echo "$frames $(( (end - start) / 1000000 )) $drawing"
}

best_plain=""; best_map=""
for i in $(seq 1 "$runs"); do
  for scene in plain map; do
    read -r frames wall drawing < <(replay "$scene")
    line="$wall $drawing $frames"
    if [ "$scene" = plain ]; then
      if [ -z "$best_plain" ] || [ "$wall" -lt "${best_plain%% *}" ]; then best_plain="$line"; fi
    else
      if [ -z "$best_map" ] || [ "$wall" -lt "${best_map%% *}" ]; then best_map="$line"; fi
    fi
  done
done
read -r plain_wall plain_drawing frames <<<"$best_plain"
read -r map_wall map_drawing _ <<<"$best_map"
awk -v pw="$plain_wall" -v mw="$map_wall" -v pd="$plain_drawing" -v md="$map_drawing" -v n="$frames" -v runs="$runs" 'BEGIN {
  printf "walk, %d frames, best of %d runs, --jobs 1\n", n, runs
  printf "--scene plain: %.1f ms a frame (drawing %.2f ms)\n", pw / n, pd
  printf "--scene map:   %.1f ms a frame (drawing %.2f ms)\n", mw / n, md
  printf "frame time with the scene / without = %.3f (target <= 1.3); drawing alone %.2fx\n", mw / pw, md / pd
}'
ratio=$(awk -v pw="$plain_wall" -v mw="$map_wall" 'BEGIN { printf "%.4f", mw / pw }')
rm -rf "$work"
awk -v r="$ratio" 'BEGIN { exit !(r <= 1.3) }'
