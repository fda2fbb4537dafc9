#!/usr/bin/env bash
# The test command: installs the missing system packages, builds the package with its
# tests, and runs the whole suite. Extra arguments go to `swift test`, e.g.
#   bash scripts/test.sh --filter GeodesyTests
# Exits non-zero when the build or any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "test: swift is not on PATH: install the Swift 6.3 toolchain first (swift.org/install)" >&2
  exit 1
fi

# The tests load report.html in headless Chromium (ReportCLITests) and read MCAP files back
# with Foxglove's reader from PyPI, in a venv (MCAPCLITests: python3 -m venv needs python3-venv).
bash scripts/install-deps.sh chromium python3-venv

# Everything the build and the run write to the temp folder (the tests' folders, poiar's
# caches for read-only sources, SwiftPM's and the compiler's scratch folders) goes into one
# folder removed at the end.
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/poiar-test-run.XXXXXX")"
trap 'rm -rf "$run_tmp"' EXIT
TMPDIR="$run_tmp" swift build --build-tests
TMPDIR="$run_tmp" swift test "$@"
