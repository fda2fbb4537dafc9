#!/usr/bin/env bash
# The facing direction against the GPS course (issue 26, items 3-4): `poiar pose` (offline and
# --causal) on the real Android drive (its gyroscope stops at 182 s for 85 s) and on simulated
# walks (one whose gyro stops for 35 s while it turns), scored by benchmarks/heading_gps.py
# (course from fixes >= 4 s and >= 5 m apart, accuracy < 20 m; median and p90 of
# |facing - course|, the held pose across a gap with no pose rows, as frames see it).
#   benchmarks/heading_gps.sh [--poiar BIN] [--keep DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
poiar="$here/.build/release/poiar"
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --poiar) poiar="$2"; shift 2;;
    --keep) keep="$2"; shift 2;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
[ -x "$poiar" ] || { echo "no $poiar: run swift build -c release --product poiar" >&2; exit 1; }
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

score() {  # name, log, [--after T]
  local name="$1" log="$2"; shift 2
  for mode in offline causal; do
    local flag=(); [ "$mode" = causal ] && flag=(--causal)
    "$poiar" pose "$log" "${flag[@]}" --out "$work/$name-$mode.csv" 2>"$work/$name-$mode.err"
    echo "$name, $mode:"
    python3 "$here/benchmarks/heading_gps.py" "$work/$name-$mode.csv" "$log" "$@" | sed 's/^/  /'
  done
}

drive="$here/../shared/data/phones/android-drive-leaf"
if [ -d "$drive" ]; then
  "$poiar" convert "$drive" --out "$work/drive.log" 2>/dev/null
  score drive "$work/drive.log" --after 182
else
  echo "no $drive: the real drive is skipped" >&2
fi
# North 60 m, east 60 m, north 60 m: turns at about 46 s and 92 s.
path="60.1689,24.9517;60.16944,24.9517;60.16944,24.95278;60.16998,24.95278"
"$poiar" simulate --script walking --waypoints "$path" --fps 0 --out "$work/walk.log" 2>/dev/null
score walk "$work/walk.log"
"$poiar" simulate --script walking --waypoints "$path" --fps 0 --gyro-outage 40,75 --out "$work/walk-gyro-gap.log" 2>/dev/null
score walk-gyro-gap "$work/walk-gyro-gap.log" --after 40
