#!/usr/bin/env bash
# Renders the pictures in docs/images/ that come from the sample data alone:
#   walk-frame.png                 frame 200 of the sample walk replay (cards, HUD)
#   layout-default.png, layout-max-stack.png, layout-distance-offset.png
#                                  `poiar project` at one pose on the Esplanadi (docs/layout.md)
# (walk-map.png needs the Helsinki extract in ../shared/data/osm: see README "Data"; the Lund
# frames need tools/make_lund_log.py; both are described in docs/rendering.md.)
# Usage: bash tools/make_doc_images.sh   (after a release build: swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/.."
poiar=.build/release/poiar
out=docs/images
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$poiar" replay SampleLogs/walk.csv --filter cafe --radar-range 800 --out "$tmp/walk" --jobs 2
cp "$tmp/walk/frame_000200.png" "$out/walk-frame.png"

# Standing on Pohjoisesplanadi looking west along the street, phone upright.
common=(--at 60.1678391,24.9475584,21.4 --heading 262 --pitch 4 --roll 0 --size 720x1280 --hfov 48
        --pois SampleLogs/helsinki-esplanadi.osm --filter cafe --radar-range 800)
"$poiar" project "${common[@]}" --png "$out/layout-default.png" > /dev/null
"$poiar" project "${common[@]}" --max-stack 2 --png "$out/layout-max-stack.png" > /dev/null
"$poiar" project "${common[@]}" --distance-offset auto --png "$out/layout-distance-offset.png" > /dev/null
echo "wrote $out/walk-frame.png and $out/layout-*.png"
