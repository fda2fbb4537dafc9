#!/usr/bin/env bash
# Peak memory of a replay of a 2 GB log (issue: "a 2 GB log replays with peak memory under
# 300 MB"). Makes the log with `poiar simulate` (a phone looking around at one spot on the
# Esplanadi for ~48 hours: gyro and accel at 100 Hz, mag 50 Hz, GPS 1 Hz, a frame row every
# 100 s), then replays it with /usr/bin/time -v and prints the peak RSS next to the log's size.
#   bash benchmarks/huge_log.sh [SIZE_GB (default 2)] [--keep]
# The log goes to benchmarks/.work/huge.csv (git-ignored; deleted afterwards unless --keep).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
size_gb="${1:-2}"
keep=no; [[ "${2:-}" == "--keep" ]] && keep=yes
work="$here/.work"; mkdir -p "$work"
poiar="$root/.build/release/poiar"
[[ -x "$poiar" ]] || (cd "$root" && swift build -c release >/dev/null)

log="$work/huge.csv"
# 11.53 bytes of log per simulated millisecond (measured: 6 917 318 bytes for 600 s).
duration=$(python3 -c "print(round($size_gb * 1024**3 / 11528.9))")
if [[ ! -f "$log" ]] || (( $(stat -c %s "$log") < size_gb * 1000**3 )); then
  echo "simulating ${duration} s into $log …"
  /usr/bin/time -f "simulate: %e s, max RSS %M KB" "$poiar" simulate --script look-around \
    --waypoints "60.1678863,24.9493217" --duration "$duration" --fps 0.01 --seed 7 --out "$log"
fi
bytes=$(stat -c %s "$log")
out="$work/huge-out"; rm -rf "$out"
echo "replaying $(python3 -c "print(f'{$bytes/1024**3:.2f}')") GiB ($bytes bytes) …"
/usr/bin/time -v "$poiar" replay "$log" --pois "$root/SampleLogs/helsinki-esplanadi.osm" --filter cafe \
  --hfov 60 --size 640x360 --jobs 2 --no-hud --out "$out" --progress-interval 60 2> "$work/huge-time.txt" || {
  cat "$work/huge-time.txt"; exit 1; }
grep -E "^poiar: (wrote|north)" "$work/huge-time.txt" || true
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/huge-time.txt")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/huge-time.txt")
frames=$(ls "$out" | grep -c '^frame_.*\.png$' || true)
python3 - "$bytes" "$rss_kb" "$wall" "$frames" <<'PY'
import sys
b, rss, wall, frames = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
print(f"log {b/1024**3:.2f} GiB, {frames} frames, wall {wall}, peak RSS {rss/1024:.1f} MiB "
      f"(target < 300 MB: {'met' if rss*1024 < 300e6 else 'MISSED'})")
PY
rm -rf "$out"
[[ "$keep" == yes ]] || rm -f "$log"
