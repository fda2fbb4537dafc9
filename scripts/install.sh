#!/usr/bin/env bash
# Builds poiar in release and installs it as PREFIX/bin/poiar, so `poiar` runs from any folder
# once PREFIX/bin is on PATH. Installs the missing system packages first (scripts/install-deps.sh).
#   bash scripts/install.sh ~/.local        # then: export PATH="$HOME/.local/bin:$PATH"
#   sudo bash scripts/install.sh /usr/local
# The binary needs no file of the repository at run time (the report's page is compiled in; fonts,
# FFmpeg, libpng, Cairo and the EGM96 grid are the system's).
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: bash scripts/install.sh PREFIX   (poiar goes to PREFIX/bin/poiar, e.g. PREFIX=~/.local)" >&2
  exit 2
fi
prefix="$(mkdir -p "$1" && cd "$1" && pwd)"  # before the cd below: a relative PREFIX is from here
cd "$(dirname "$0")/.."

bash scripts/build-release.sh

mkdir -p "$prefix/bin"
install -m 755 .build/release/poiar "$prefix/bin/poiar"
echo "install: poiar is $prefix/bin/poiar"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install: $prefix/bin is not on PATH: add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
