#!/usr/bin/env bash
# What the frames show (docs/layout.md "Figures"), measured on the release build:
#   - cards on frames with POIs in the picture: of the frames whose POIs in the picture and in
#     sight number no more than --max-cards (10), how many give every one a card or a cluster card;
#   - edge arrows over an anchor and over a card (target: 0 each);
# on the sample walk (`replay SampleLogs/walk.csv --filter cafe`) and the GoPro clip
# (`replay SampleLogs/gopro-walk.mp4 --pois SampleLogs/gopro-walk.demo-pois.csv`), counted by
# tools/frame_figures.py from each replay's frames.jsonl; then the frame time with the map scene
# against --scene plain (benchmarks/scene.sh; target ≤ 1.3×). Exits 1 if a target is missed.
#   benchmarks/frame_figures.sh [--no-build] [--no-time]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/benchmarks/.work/frame-figures"
build=1
time=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0; shift;;
    --no-time) time=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
. "$here/benchmarks/release_poiar.sh"
rm -rf "$work"; mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
missed=0

# One replay's figures: its name, then the replay's arguments.
figures() {
  local name="$1"; shift
  (cd "$here" && "$poiar" replay "$@" --out "$work/$name" --jobs 2 > /dev/null 2> "$work/$name.txt")
  echo "== $name: poiar replay $*"
  python3 "$here/tools/frame_figures.py" "$work/$name/frames.jsonl" | tee "$work/$name.figures"
  grep -q "^arrows over an anchor: 0 of" "$work/$name.figures" || missed=1
  grep -q "^arrows over a card: 0 of" "$work/$name.figures" || missed=1
}

figures walk SampleLogs/walk.csv --filter cafe
figures gopro SampleLogs/gopro-walk.mp4 --pois SampleLogs/gopro-walk.demo-pois.csv
if [ "$time" = 1 ]; then
  echo "== frame time with the scene"
  bash "$here/benchmarks/scene.sh" --no-build || missed=1
fi
exit "$missed"
