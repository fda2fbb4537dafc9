#!/usr/bin/env bash
# The demo in one command: installs the missing system packages, builds poiar in release,
# replays the sample walk (SampleLogs/walk.csv) with the cafes labelled, and says where
# the frames are. Extra arguments go to `poiar replay`, e.g.
#   bash scripts/demo.sh --jobs 2
#   bash scripts/demo.sh --filter cafe,restaurant --out /tmp/walk
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "demo: swift is not on PATH: install the Swift 6.3 toolchain first (swift.org/install)" >&2
  exit 1
fi

bash scripts/install-deps.sh

echo "demo: building poiar (release; the first build takes a few minutes)"
# SwiftPM leaves empty TemporaryDirectory.* folders in the temp folder: give it one of its own.
build_tmp="$(mktemp -d "${TMPDIR:-/tmp}/poiar-demo-build.XXXXXX")"
trap 'rm -rf "$build_tmp"' EXIT
TMPDIR="$build_tmp" swift build -c release --product poiar

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
