#!/usr/bin/env bash
# How honest the pose's `heading_sigma_deg` is: per trial, the share of movement rows whose
# heading error (against the truth) is within 1σ and 2σ, offline (the default) and causal
# (`--causal`), on every BROAD trial in a folder (default ../shared/data/broad) and on
# simulated recordings with their truth (`poiar simulate` along a Helsinki street: looking
# around, walking, walking with a gyro bias, a hard iron and a magnet passing by). Each table
# ends with all its rows pooled and how many trials pass. Honest means 55–85 % within 1σ and at
# least 90 % within 2σ, in every trial (`heading_sigma.py`); `heading_sigma_cv.py` checks the
# model's numbers by cross-validation.
#   benchmarks/heading_sigma.sh [--dir DIR] [--no-build] [--no-simulated] [-- extra pose args]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="$here/../shared/data/broad"
build=1
simulated=1
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2;;
    --no-build) build=0; shift;;
    --no-simulated) simulated=0; shift;;
    --) shift; extra=("$@"); break;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
. "$here/benchmarks/release_poiar.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

table() {  # the header of one table
  echo
  echo "$1"
  echo
  echo "| trial | rows | within 1σ | within 2σ | median σ (°) | median error (°) | verdict |"
  echo "|---|---:|---:|---:|---:|---:|---|"
}

score_all() {  # $1: pose options (offline: none), then the table's rows for every trial
  for log in "$dir"/*.csv.gz; do
    case "$log" in *.truth.csv.gz) continue;; esac
    stem="$(basename "$log" .csv.gz)"
    truth="$dir/$stem.truth.csv.gz"
    [ -f "$truth" ] || continue
    "$poiar" pose "$log" $1 --out "$work/$stem.csv" ${extra[@]+"${extra[@]}"} 2>/dev/null
    python3 "$here/benchmarks/heading_sigma.py" --truth "$truth" --poses "$work/$stem.csv" --name "$stem" --pool "$work/pool"
  done
  pooled
}

pooled() {  # the table's rows together, then a fresh pool
  python3 "$here/benchmarks/heading_sigma.py" --pooled "$work/pool" --name "**all rows**"
  rm -f "$work/pool" "$work/pool.verdicts"
}

table "BROAD, offline (the default)"
score_all ""
table "BROAD, causal (--causal)"
score_all "--causal"

if [ "$simulated" = 1 ]; then
  sim() {  # name, simulate options…
    local name="$1"; shift
    "$poiar" simulate --waypoints "60.16787,24.94926;60.16810,24.95300;60.16870,24.95600" "$@" \
      --out "$work/$name.csv" --truth "$work/$name.truth.csv" --fps 0 >/dev/null
    for mode in offline causal; do
      local opt=""; [ "$mode" = causal ] && opt="--causal"
      "$poiar" pose "$work/$name.csv" $opt --out "$work/$name.$mode.poses.csv" ${extra[@]+"${extra[@]}"} 2>/dev/null
      python3 "$here/benchmarks/heading_sigma.py" --truth "$work/$name.truth.csv" --poses "$work/$name.$mode.poses.csv" \
        --name "$name ($mode)" --pool "$work/pool"
    done
  }
  table "Simulated (poiar simulate, truth known)"
  sim look-around --script look-around --duration 120 --seed 3
  sim walking --script walking --duration 180 --seed 4
  sim walking-bias --script walking --duration 180 --seed 5 --gyro-bias 0.004,-0.003,0.006
  sim walking-hard-iron --script walking --duration 180 --seed 6 --hard-iron 12,-8,5
  sim walking-magnet --script walking --duration 180 --seed 7 --mag-disturbance 60,90,15
  pooled
fi
