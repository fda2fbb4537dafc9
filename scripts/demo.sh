#!/usr/bin/env bash
# The demo in one command: installs the missing system packages, builds poiar in release,
# replays the sample walk (SampleLogs/walk.csv) with the cafes labelled, and says where
# the frames are. Extra arguments go to `poiar replay`, e.g.
#   bash scripts/demo.sh --jobs 2
#   bash scripts/demo.sh --filter cafe,restaurant --out /tmp/walk
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build-release.sh

# Where the frames go: Output/walk/ unless --out is among the extra arguments.
out="Output/walk"
previous=""
for arg in "$@"; do
  case "$arg" in
    --out=*) out="${arg#--out=}" ;;
  esac
  if [ "$previous" = "--out" ]; then out="$arg"; fi
  previous="$arg"
done

echo "demo: replaying SampleLogs/walk.csv (cafes)"
.build/release/poiar replay SampleLogs/walk.csv --filter cafe "$@"

echo
echo "demo: frames are in ${out%/}/: frame_NNNNNN.png (one per frame) and frames.jsonl (the manifest)"
