#!/usr/bin/env bash
# Builds poiar in release (.build/release/poiar), installing the missing system packages first:
# the one build of scripts/demo.sh and scripts/install.sh. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "build: swift is not on PATH: install the Swift 6.3 toolchain first (swift.org/install)" >&2
  exit 1
fi

bash scripts/install-deps.sh

echo "build: building poiar (release; the first build takes a few minutes)"
# SwiftPM leaves empty TemporaryDirectory.* folders in the temp folder: give it one of its own.
build_tmp="$(mktemp -d "${TMPDIR:-/tmp}/poiar-build.XXXXXX")"
trap 'rm -rf "$build_tmp"' EXIT
TMPDIR="$build_tmp" swift build -c release --product poiar
