#!/usr/bin/env bash
# Runs every poiar command of README.md's and docs/*.md's code blocks as written, from a fresh
# copy of the repository per page, with the release build (ReadmeCommandsTests with
# POIAR_CHECK_DOCS; the README's alone run in every `scripts/test.sh`). Commands that need the
# network (`pois fetch`, `--fetch`) are listed, not run; those reading ../shared/data run when it
# is beside the repository. Exits non-zero when a command fails or prints an error.
# Usage: bash scripts/check_docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-release.sh
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/poiar-docs.XXXXXX")"
trap 'rm -rf "$run_tmp"' EXIT
TMPDIR="$run_tmp" POIAR_CHECK_DOCS="$PWD/.build/release/poiar" swift test --filter ReadmeCommandsTests
