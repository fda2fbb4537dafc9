#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages poiar builds and renders with, but only those that
# are missing (checked with `dpkg -s`), so a second run installs nothing and needs no root.
# Packages named as arguments are installed with them, the same way: what one script alone
# needs (scripts/test.sh: chromium; scripts/slurm/demo.sh: slurm-wlm munge).
# Used by scripts/demo.sh and scripts/test.sh; it can also be run on its own.
set -euo pipefail

packages=(
  libpng-dev          # PNG still decoding (CPNG)
  libdeflate-dev      # PNG output compression (CDeflate)
  libturbojpeg0-dev   # JPEG still decoding (CJPEG)
  libcairo2-dev       # drawing the label cards (CCairo)
  libfreetype-dev     # font rendering for Cairo
  fonts-dejavu-core   # the default label fonts, DejaVu Sans and DejaVu Sans Bold
  libsqlite3-dev      # the POI store (GRDB over the system SQLite)
  zlib1g-dev          # reading .csv.gz sensor logs and OSM PBF blobs (CZlib)
  libbz2-dev          # reading .osm.bz2 POI sources (CBZip2)
  libxml2-dev         # streaming OSM XML (CLibXML2)
  libavformat-dev     # video in: footage frames and GoPro telemetry (CFFmpeg)
  libavcodec-dev      # decoding (and --video encoding) of H.264, H.265, …
  libswscale-dev      # video frames to the frames' pixel layout
  libavutil-dev       # FFmpeg's utilities (FFT for footage sync)
  pkg-config          # how SwiftPM finds the libraries above
  proj-data           # the EGM96 geoid grid, /usr/share/proj/egm96_15.gtx: heights above sea level → ellipsoidal
  "$@"                # the calling script's own
)

if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: no dpkg/apt-get: this is not Debian or Ubuntu." >&2
  echo "install-deps: install the equivalents of these yourself: ${packages[*]}" >&2
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg -s "$package" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$package")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all system packages present"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: not root and no sudo: install them as root, then run this again" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -q
${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
