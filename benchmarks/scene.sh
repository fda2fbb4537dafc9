#!/usr/bin/env bash
# The map scene's cost (docs/rendering.md, "The map scene"): the sample walk replayed with
# --scene plain (sky and ground, as before the scene) and --scene map (the buildings around the
# camera), alternately, in the same run, on one render thread (--jobs 1), each the best of
# --runs. A frame's time is the whole replay's wall time over its frames (fusion, labels,
# drawing and PNG encoding: how long a frame takes to come out), both as wall time and as CPU
# time (user + system, from /usr/bin/time): on a machine shared with other work the wall time
# counts the waits for a core, the CPU time does not, so the target is judged by CPU time. The
# drawing alone (background, cards, HUD; from --stats) is printed beside it. Target: frame CPU
# time with the scene at most 1.3× without; exits 1 if missed.
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

# One replay with --scene $1: prints "frames cpu_ms wall_ms drawing_ms_a_frame".
replay() {
  /usr/bin/time -f "%e %U %S" -o "$work/$1.time" \
    "$poiar" replay "$log" --filter "$filter" --scene "$1" --out "$work/$1" --stats --jobs 1 2> "$work/$1.txt" >/dev/null
  local frames drawing wall user sys
  frames=$(ls "$work/$1" | grep -c '^frame_.*\.png$')
  drawing=$(sed -nE 's/.*drawing ([0-9.]+) ms a frame.*/\1/p' "$work/$1.txt")
  read -r wall user sys < <(tail -n 1 "$work/$1.time")
  awk -v f="$frames" -v w="$wall" -v u="$user" -v s="$sys" -v d="$drawing" \
    'BEGIN { printf "%d %d %d %s\n", f, (u + s) * 1000, w * 1000, d }'
}

best_plain=""; best_map=""
for i in $(seq 1 "$runs"); do
  for scene in plain map; do
    read -r frames cpu wall drawing < <(replay "$scene")
    line="$cpu $wall $drawing $frames"
    if [ "$scene" = plain ]; then
      if [ -z "$best_plain" ] || [ "$cpu" -lt "${best_plain%% *}" ]; then best_plain="$line"; fi
    else
      if [ -z "$best_map" ] || [ "$cpu" -lt "${best_map%% *}" ]; then best_map="$line"; fi
    fi
  done
done
read -r plain_cpu plain_wall plain_drawing frames <<<"$best_plain"
read -r map_cpu map_wall map_drawing _ <<<"$best_map"
awk -v pc="$plain_cpu" -v mc="$map_cpu" -v pw="$plain_wall" -v mw="$map_wall" -v pd="$plain_drawing" -v md="$map_drawing" \
    -v n="$frames" -v runs="$runs" 'BEGIN {
  printf "walk, %d frames, best of %d runs by CPU time, --jobs 1\n", n, runs
  printf "--scene plain: %.1f ms CPU a frame, %.1f ms wall (drawing %.2f ms)\n", pc / n, pw / n, pd
  printf "--scene map:   %.1f ms CPU a frame, %.1f ms wall (drawing %.2f ms)\n", mc / n, mw / n, md
  printf "frame CPU time with the scene / without = %.3f (target <= 1.3); wall %.3f; drawing alone %.2fx\n", mc / pc, mw / pw, md / pd
}'
ratio=$(awk -v pc="$plain_cpu" -v mc="$map_cpu" 'BEGIN { printf "%.4f", mc / pc }')
rm -rf "$work"
awk -v r="$ratio" 'BEGIN { exit !(r <= 1.3) }'
