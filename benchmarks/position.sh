#!/usr/bin/env bash
# The position smoother's figures (docs/position.md):
#   - the sample walk simulated with the GPS error model of benchmarks/position/walk-multipath.script.json
#     (wander, white noise, multipath bursts of 18–25 m that claim 8–12 m, dropouts, stale
#     fixes) for several seeds, replayed offline (frames.jsonl: location smoothed, location.gps
#     raw, location.sigma_m): the raw fixes' and the smoothed track's median and p95 error at the
#     frames, the share of frames within sigma and 2 sigma;
#   - the same walk under other GPS error models (--models; the same script with its
#     sensors.gps_errors changed: a longer, larger wander; bigger, longer bursts; more and
#     longer dropouts), at the fixes (pose --track), offline and causal (--causal), each with
#     the IMU's steps and without them (the hidden --track-gps-only);
#   - a simulated drive (--models drive: benchmarks/position/drive-multipath.script.json, the
#     walk's GPS errors and the receiver's Doppler speed), at the fixes, offline and causal,
#     with the speed and without it (its gps_velocity rows taken out: what poiar read before);
#   - the real recordings: the Sensor Logger drive (../shared/data/phones/android-drive-leaf)
#     and the GoPro MAX clip (../shared/data/footage/gopro-max), their smoothed track against
#     the raw fixes (jerk before/after, how far apart) and a map of each (smoothed track, its
#     68 % band, the raw fixes faintly) in benchmarks/.work/position/.
# Done when (issue 28): median ≤ 0.9× and p95 ≤ 0.5× the raw fixes', 50–85 % of frames within
# sigma and ≥ 90 % within 2 sigma.
#   benchmarks/position.sh [--seeds "20250614 1 2 3 4 5"] [--models "ours wander bursts dropouts slow white mixed drive"] [--no-build] [--no-real]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/benchmarks/.work/position"
shared="$here/../shared/data"
seeds="20250614 1 2 3 4 5"
models="ours wander bursts dropouts drive"
build=1
real=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2;;
    --models) models="$2"; shift 2;;
    --no-build) build=0; shift;;
    --no-real) real=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
. "$here/benchmarks/release_poiar.sh"
mkdir -p "$work"
eval="python3 $here/benchmarks/position_eval.py"
base="$here/benchmarks/position/walk-multipath.script.json"
# A model's script: the walk with its GPS errors changed (python3 edits the JSON).
script_for() {
  local model="$1" out="$work/$1.script.json" from="$base"
  [ "$model" = drive ] && from="$here/benchmarks/position/drive-multipath.script.json"
  python3 - "$from" "$out" "$model" <<'PY'
import json, sys
base, out, model = sys.argv[1:]
s = json.load(open(base))
g = s["sensors"]["gps_errors"]
if model == "wander":      # a slower, larger wander
    s["sensors"]["gps_noise"] = 6; g["wander_tau"] = 120
elif model == "bursts":    # bigger, longer, more frequent multipath, still claiming a good fix
    g["multipath"] = {"per_minute": 2, "seconds": [8, 20], "offset_m": [30, 50], "claimed_m": [6, 10]}
elif model == "dropouts":  # more and longer gaps, more stale fixes
    g["dropouts"] = {"per_minute": 1.5, "seconds": [5, 20]}; g["stale"] = 0.1
elif model == "slow":      # a wander slower and larger than the smoother assumes: all but a constant offset
    s["sensors"]["gps_noise"] = 8; g["wander_tau"] = 300
elif model == "white":     # a small, quick wander under white noise that dominates
    s["sensors"]["gps_noise"] = 3; g["wander_tau"] = 20; g["white_noise"] = 2
elif model == "mixed":     # a 5 m wander over a minute, longer bursts, more dropouts
    s["sensors"]["gps_noise"] = 5; g["wander_tau"] = 60
    g["multipath"] = {"per_minute": 2, "seconds": [5, 15], "offset_m": [15, 35], "claimed_m": [5, 10]}
    g["dropouts"] = {"per_minute": 1, "seconds": [5, 15]}
elif model == "tau10":     # the simulator's parameters varied beyond the models above (σ's floor, docs/position.md)
    s["sensors"]["gps_noise"] = 4; g["wander_tau"] = 10
elif model == "tau120n2":
    s["sensors"]["gps_noise"] = 2; g["wander_tau"] = 120
elif model == "n8tau60":
    s["sensors"]["gps_noise"] = 8; g["wander_tau"] = 60
elif model == "bigburst":
    g["multipath"] = {"per_minute": 1, "seconds": [10, 25], "offset_m": [40, 70], "claimed_m": [4, 8]}
elif model == "smallburst":
    g["multipath"] = {"per_minute": 3, "seconds": [3, 8], "offset_m": [8, 14], "claimed_m": [4, 8]}
elif model not in ("ours", "drive"):
    sys.exit(f"unknown model {model}")
json.dump(s, open(out, "w"), indent=1)
PY
  echo "$out"
}
for model in $models; do
  script="$(script_for "$model")"
  for seed in $seeds; do
    d="$work/$model-$seed"; mkdir -p "$d"
    "$poiar" simulate --script "$script" --seed "$seed" --out "$d/walk.csv" --track "$d/walk.track.csv" >/dev/null 2>&1
    if [ "$model" = ours ]; then
      "$poiar" replay "$d/walk.csv" --pois "$here/SampleLogs/helsinki-esplanadi.osm" --camera "$here/SampleLogs/walk.camera.json" \
        --filter cafe --jobs 2 --out "$d/replay" >/dev/null 2>&1
      $eval --brief "$d/walk.track.csv" "$d/replay/frames.jsonl" --label "$model $seed frames offline+imu"
    fi
    for mode in offline causal; do
      flag=""; [ "$mode" = causal ] && flag="--causal"
      "$poiar" pose "$d/walk.csv" $flag --out "$d/$mode-imu.pose.csv" --track "$d/$mode-imu.csv" >/dev/null 2>&1
      "$poiar" pose "$d/walk.csv" $flag --out "$d/$mode-gps.pose.csv" --track "$d/$mode-gps.csv" --track-gps-only >/dev/null 2>&1
      $eval --brief "$d/walk.track.csv" "$d/$mode-gps.csv" --label "$model $seed fixes $mode gps-only"
      $eval --brief "$d/walk.track.csv" "$d/$mode-imu.csv" --label "$model $seed fixes $mode +imu"
      if [ "$model" = drive ]; then
        grep -v ',gps_velocity,' "$d/walk.csv" > "$d/walk-no-speed.csv"
        "$poiar" pose "$d/walk-no-speed.csv" $flag --out "$d/$mode-no-speed.pose.csv" --track "$d/$mode-no-speed.csv" >/dev/null 2>&1
        $eval --brief "$d/walk.track.csv" "$d/$mode-no-speed.csv" --label "$model $seed fixes $mode +imu no-speed"
      fi
    done
  done
done
[ "$real" = 1 ] || exit 0
for rec in "phones/android-drive-leaf" "footage/gopro-max/max-heromode.mp4"; do
  src="$shared/$rec"
  if [ ! -e "$src" ]; then echo "skipped $rec: $src is not there"; continue; fi
  name="$(basename "$rec" | sed 's/\..*//')"
  "$poiar" pose "$src" --out "$work/$name-pose.csv" --track "$work/$name-track.csv" >/dev/null 2>&1
  $eval --real "$work/$name-track.csv" --label "$name"
  "$poiar" map "$src" --out "$work/$name-map.png" >/dev/null 2>&1
  echo "  map: $work/$name-map.png"
done
