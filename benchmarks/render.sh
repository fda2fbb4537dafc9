#!/usr/bin/env bash
# The rendering benchmark in one run (docs/rendering-performance.md):
#   1. one 1920×1080 JPEG still with 20 labels → PNG, in process (`poiar bench-render`),
#      against (a) the same work in Python with Pillow and (b) bare decode + encode with
#      poiar's codecs (the floor);
#   2. a simulated 10-minute walk at 2 fps (1200 frames, 1280×720, synthetic background)
#      replayed end to end with --jobs 1 and --jobs 2;
#   3. peak memory (max RSS) of replay on a 1-minute and on the 10-minute walk.
#   benchmarks/render.sh [--iterations N] [--level L] [--runs N] [--no-build] [--skip-walk]
# Builds poiar in release mode; makes a venv with Pillow in benchmarks/.venv (git-ignored)
# and its inputs in benchmarks/.work (git-ignored). Wall-clock numbers depend on what else
# runs on the machine: run it on an idle one; the walk's replays are timed --runs times
# (default 3) and the best counts.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/benchmarks/.work"
venv="$here/benchmarks/.venv"
iterations=30
runs=3
level=6
build=1
walk=1
while [ $# -gt 0 ]; do
  case "$1" in
    --iterations) iterations="$2"; shift 2;;
    --level) level="$2"; shift 2;;
    --runs) runs="$2"; shift 2;;
    --no-build) build=0; shift;;
    --skip-walk) walk=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done

. "$here/benchmarks/release_poiar.sh"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import PIL" 2>/dev/null || "$venv/bin/pip" install --quiet pillow
py="$venv/bin/python"
mkdir -p "$work"

echo "## Machine"
echo
echo '```'
echo "$(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$py" -c "import PIL, PIL.features as f; print('Pillow', PIL.__version__, '(libjpeg-turbo' if f.check('libjpeg_turbo') else '(libjpeg', f.version('jpg') + ', zlib', f.version('zlib') + ')')"
echo '```'
echo

# A 1920×1080 still: the Lund test photo (Tests/Fixtures/stills, OpenSfM, BSD) scaled and cropped.
still="$work/still-1920x1080.jpg"
if [ ! -f "$still" ]; then
  "$py" - "$here/Tests/Fixtures/stills/lund-01.jpg" "$still" <<'EOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
w, h = im.size
s = max(1920 / w, 1080 / h)
im = im.resize((round(w * s), round(h * s)), Image.LANCZOS)
x, y = (im.size[0] - 1920) // 2, (im.size[1] - 1080) // 2
im.crop((x, y, x + 1920, y + 1080)).save(sys.argv[2], "JPEG", quality=90)
EOF
fi

echo "## One frame: 1920×1080 JPEG, 20 labels → PNG (zlib level $level, $iterations iterations, medians, one core)"
echo
out="$work/frame"
mkdir -p "$out"
poiar_line="$("$poiar" bench-render --still "$still" --labels 20 --iterations "$iterations" --png-level "$level" --out "$out")"
pillow_line="$("$py" "$here/benchmarks/ref_render.py" "$still" "$out/labels.json" --iterations "$iterations" --level "$level" --out "$out")"
echo '```'
echo "$poiar_line"
echo "$pillow_line"
"$py" - "$poiar_line" "$pillow_line" <<'EOF'
import re, sys
p, q = sys.argv[1], sys.argv[2]
frame = float(re.search(r"frame ([\d.]+) ms", p).group(1))
floor = float(re.search(r"floor decode \+ encode ([\d.]+) ms", p).group(1))
pillow = float(re.search(r"frame ([\d.]+) ms", q).group(1))
print(f"Pillow / poiar: {pillow / frame:.2f}× (target ≥ 2)   poiar / floor: {frame / floor:.3f}× (target ≤ 1.25)")
EOF
echo '```'
echo

if [ "$walk" = 1 ]; then
  echo "## A 10-minute walk: 1200 frames, 1280×720, synthetic background (best of $runs runs)"
  echo
  pois="$here/SampleLogs/helsinki-esplanadi.osm"
  path="60.16770,24.94420;60.16800,24.95250;60.16760,24.95240;60.16735,24.94430"
  [ -f "$work/walk10.csv" ] || "$poiar" simulate --script walking --waypoints "$path" --duration 600 --fps 2 \
    --pois "$pois" --out "$work/walk10.csv" 2>/dev/null
  [ -f "$work/walk1.csv" ] || "$poiar" simulate --script walking --waypoints "$path" --duration 60 --fps 2 \
    --pois "$pois" --out "$work/walk1.csv" 2>/dev/null
  "$poiar" pois query --db "$pois" --near 60.1677,24.9442 --radius 1 >/dev/null  # the POI cache, built once
  # --scene plain: the sky-and-ground background these figures have always measured (docs/rendering.md).
  args=(--pois "$pois" --filter cafe,restaurant --size 1280x720 --hfov 60 --progress-interval 0 --scene plain)
  run() {  # run ID LABEL LOG JOBS: best wall time of $runs runs, its CPU use, the largest max RSS
    local id="$1" label="$2" log="$3" jobs="$4" dir="$work/out-$1"
    : > "$work/time-$id.txt"
    for _ in $(seq "$runs"); do
      rm -rf "$dir"
      /usr/bin/time -a -f "%e %P %M" -o "$work/time-$id.txt" "$poiar" replay "$log" --out "$dir" --jobs "$jobs" "${args[@]}" 2>/dev/null
    done
    "$py" -c '
import sys
label, frames, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runs = [l.split() for l in open(path) if l.strip() and not l.startswith("Command")]
secs, cpu = min((float(s), c) for s, c, _ in runs)
rss = max(int(m) for _, _, m in runs)
print(f"{label:<18} {frames:5d} frames  best of {len(runs)}: {secs:6.2f} s  {frames / secs:6.1f} frames/s  CPU {cpu:>4}  max RSS {rss / 1024:6.1f} MB")
open(path + ".best", "w").write(str(secs))
' "$label" "$(wc -l < "$dir/frames.jsonl")" "$work/time-$id.txt"
  }
  echo '```'
  run j1 "10 min, --jobs 1" "$work/walk10.csv" 1
  run j2 "10 min, --jobs 2" "$work/walk10.csv" 2
  run short "1 min, --jobs 2" "$work/walk1.csv" 2
  "$py" -c '
import sys
j1, j2 = float(open(sys.argv[1]).read()), float(open(sys.argv[2]).read())
print(f"--jobs 2 / --jobs 1: {j1 / j2:.2f}× faster (target ≥ 1.8)   10-minute walk with --jobs 2: {j2:.1f} s (target < 60)")
' "$work/time-j1.txt.best" "$work/time-j2.txt.best"
  echo '```'
fi
