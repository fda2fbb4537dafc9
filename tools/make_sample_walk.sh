#!/usr/bin/env bash
# Regenerates the sample walk (SampleLogs/walk.csv, walk.truth.csv, walk.track.csv) from its
# script, SampleLogs/walk.script.json, with poiar simulate, and prints when the cafes are in
# view (tools/sample_walk_views.py). Deterministic: the same poiar gives the same files.
# Usage: bash tools/make_sample_walk.sh [path/to/poiar]   (default: builds and uses .build/debug/poiar)
set -euo pipefail
cd "$(dirname "$0")/.."
poiar=${1:-}
if [ -z "$poiar" ]; then
  swift build --product poiar >&2
  poiar=.build/debug/poiar
fi
"$poiar" simulate --script SampleLogs/walk.script.json \
  --out SampleLogs/walk.csv --truth SampleLogs/walk.truth.csv --track SampleLogs/walk.track.csv
python3 tools/sample_walk_views.py
