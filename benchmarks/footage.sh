#!/usr/bin/env bash
# Replay over footage against its floor, in one run (docs/footage.md, "Speed"):
#   floor:  poiar bench-footage CLIP — every frame decoded (libavcodec) and written as a PNG,
#           unchanged, the PNGs encoded --jobs at a time while the next frames decode;
#   replay: poiar replay CLIP --pois DEMO — the same frames with the telemetry read, the pose
#           fused, the POIs laid out and drawn with the HUD, and the same PNG encoding.
# Each is timed --runs times (default 5), alternately so background load hits both alike; the
# best run of each counts. Prints the ratio replay / floor (target ≤ 1.25) and how the replay
# with --jobs 2 compares with the clip's own length (target: faster than real time), and the
# replay's peak memory (max RSS).
#   benchmarks/footage.sh [--runs N] [--clip FILE --pois FILE] [--no-build]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/benchmarks/.work/footage"
clip="$here/SampleLogs/gopro-walk.mp4"
pois="$here/SampleLogs/gopro-walk.demo-pois.csv"
runs=5
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2;;
    --clip) clip="$2"; shift 2;;
    --pois) pois="$2"; shift 2;;
    --no-build) build=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
. "$here/benchmarks/release_poiar.sh"
mkdir -p "$work"

now() { date +%s.%N; }
best() { sort -g | head -1; }

echo "## Footage benchmark"
echo
echo "$(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg); clip $(basename "$clip"), $runs runs each, best counts"
echo
# The POI source's cache is built once, before timing.
"$poiar" replay "$clip" --pois "$pois" --out "$work/warm" --fps 1 >/dev/null 2>&1
echo "| jobs | floor: decode + PNG (s) | replay (s) | replay / floor | frames | clip length / replay |"
echo "|---|---|---|---|---|---|"
for jobs in 1 2; do
  floor_times=(); replay_times=()
  for _ in $(seq "$runs"); do
    rm -rf "$work/floor" "$work/replay"
    t0=$(now); "$poiar" bench-footage "$clip" --out "$work/floor" --jobs "$jobs" >/dev/null; t1=$(now)
    floor_times+=("$(echo "$t1 - $t0" | bc -l)")
    t0=$(now); "$poiar" replay "$clip" --pois "$pois" --out "$work/replay" --jobs "$jobs" >/dev/null 2>&1; t1=$(now)
    replay_times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  f=$(printf '%s\n' "${floor_times[@]}" | best)
  r=$(printf '%s\n' "${replay_times[@]}" | best)
  frames=$(ls "$work/replay" | grep -c '^frame_.*\.png$')
  # The clip's length: the footage times of the first and last frames, plus one frame.
  first=$(head -1 "$work/replay/frames.jsonl" | sed -n 's/.*"footage_time_s": \([-0-9.e]*\).*/\1/p')
  last=$(tail -1 "$work/replay/frames.jsonl" | sed -n 's/.*"footage_time_s": \([-0-9.e]*\).*/\1/p')
  duration=$(echo "($last - $first) * $frames / ($frames - 1)" | bc -l)
  printf '| %d | %.2f | %.2f | %.3f | %d | %.2f× |\n' "$jobs" "$f" "$r" "$(echo "$r / $f" | bc -l)" "$frames" "$(echo "$duration / $r" | bc -l)"
done
echo
rm -rf "$work/replay"
rss=$( { /usr/bin/time -v "$poiar" replay "$clip" --pois "$pois" --out "$work/replay" --jobs 2 >/dev/null; } 2>&1 | sed -n 's/.*Maximum resident set size (kbytes): //p')
echo "replay --jobs 2 peak memory (max RSS): $((rss / 1024)) MiB"
