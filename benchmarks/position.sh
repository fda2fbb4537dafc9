#!/usr/bin/env bash
# The position smoother's figures (docs/position.md):
#   - the sample walk simulated with the GPS error model of benchmarks/position/walk-multipath.script.json
#     (wander, white noise, multipath bursts of 18–25 m that claim 8–12 m, dropouts, stale
#     fixes) for several seeds, replayed offline (frames.jsonl: location smoothed, location.gps
#     raw, location.sigma_m): the raw fixes' and the smoothed track's median and p95 error at the
#     frames, the share of frames within sigma and 2 sigma, the jerk of both; and the same walks
#     through the causal filter alone (pose --causal --track, at the fixes);
#   - the real recordings: the Sensor Logger drive (../shared/data/phones/android-drive-leaf)
#     and the GoPro MAX clip (../shared/data/footage/gopro-max), their smoothed track against
#     the raw fixes (jerk before/after, how far apart) and a map of each (smoothed track, its
#     68 % band, the raw fixes faintly) in benchmarks/.work/position/.
# Done when (issue 28): median ≤ 0.9× and p95 ≤ 0.5× the raw fixes', 50–85 % of frames within
# sigma and ≥ 90 % within 2 sigma.
#   benchmarks/position.sh [--seeds "20250614 1 2 3"] [--no-build]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/benchmarks/.work/position"
shared="$here/../shared/data"
seeds="20250614 1 2 3"
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2;;
    --no-build) build=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
. "$here/benchmarks/release_poiar.sh"
mkdir -p "$work"
eval="python3 $here/benchmarks/position_eval.py"
for seed in $seeds; do
  d="$work/walk-$seed"; mkdir -p "$d"
  "$poiar" simulate --script "$here/benchmarks/position/walk-multipath.script.json" --seed "$seed" \
    --out "$d/walk.csv" --track "$d/walk.track.csv" >/dev/null 2>&1
  "$poiar" replay "$d/walk.csv" --pois "$here/SampleLogs/helsinki-esplanadi.osm" --camera "$here/SampleLogs/walk.camera.json" \
    --filter cafe --jobs 2 --out "$d/replay" >/dev/null 2>&1
  $eval "$d/walk.track.csv" "$d/replay/frames.jsonl" --label "walk seed $seed, offline, at the frames"
  "$poiar" pose "$d/walk.csv" --causal --out /dev/null --track "$d/causal-track.csv" >/dev/null 2>&1
  $eval "$d/walk.track.csv" "$d/causal-track.csv" --label "walk seed $seed, causal, at the fixes"
done
for rec in "phones/android-drive-leaf" "footage/gopro-max/max-heromode.mp4"; do
  src="$shared/$rec"
  if [ ! -e "$src" ]; then echo "skipped $rec: $src is not there"; continue; fi
  name="$(basename "$rec" | sed 's/\..*//')"
  "$poiar" pose "$src" --out /dev/null --track "$work/$name-track.csv" >/dev/null 2>&1
  $eval --real "$work/$name-track.csv" --label "$name"
  "$poiar" map "$src" --out "$work/$name-map.png" >/dev/null 2>&1
  echo "  map: $work/$name-map.png"
done
