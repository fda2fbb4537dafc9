#!/usr/bin/env bash
# Renders every picture in README.md and docs/images/ again, each from the command its caption
# states, with the release build:
#   walk-frame.png, walk-scene.png  frame 200 of `replay SampleLogs/walk.csv --filter cafe --radar-range 800`
#   layout-after-0440.png           frame 440 of the same replay (docs/layout.md)
#   layout-declutter-0440.png       frame 440 of the same with --occlusion off
#   report.png                      report.html of `replay … --filter cafe --report --truth …` at frame 62,
#                                   in headless Chromium, a 1400×1100 window (docs/report.md)
#   layout-default.png, layout-max-stack.png, layout-distance-offset.png
#                                   `poiar project` at one pose on the Esplanadi (docs/layout.md)
#   phone-upright.png, phone-flat-map.png
#                                   a simulated phone recording, upright then flat (docs/phone.md)
#   gopro-frame.png, gopro-frame-315.png
#                                   frames 150 and 315 of the GoPro clip over its own video
#   category-icons.png              the icon sheet the golden-image test checks the build against
#                                   (Tests/RenderingTests/Fixtures/golden/icons.png)
# and, from the real data in ../shared/data beside the repository (left out, saying so, without it):
#   walk-map.png                    `poiar map` of the walk over Helsinki.osm.pbf (docs/rendering.md)
#   lund-frame-08.jpg, lund-frame-22.jpg
#                                   the Lund replay of tools/make_lund_log.py (docs/rendering.md)
# layout-before-0440.png is not made again: it is the picture of an older build (before the
# line-of-sight check), kept for the comparison in docs/layout.md.
# Usage: bash tools/make_doc_images.sh   (after a release build: swift build -c release;
# report.png needs chromium, the Lund frames python3 and libturbojpeg)
set -euo pipefail
cd "$(dirname "$0")/.."
poiar=.build/release/poiar
out=docs/images
shared=../shared/data
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

# The sample walk: its frames 200 and 440, the declutter alone, and the report.
"$poiar" replay SampleLogs/walk.csv --filter cafe --radar-range 800 --out "$tmp/walk" --jobs 2
cp "$tmp/walk/frame_000200.png" "$out/walk-frame.png"
cp "$tmp/walk/frame_000200.png" "$out/walk-scene.png"
cp "$tmp/walk/frame_000440.png" "$out/layout-after-0440.png"
"$poiar" replay SampleLogs/walk.csv --filter cafe --radar-range 800 --occlusion off --out "$tmp/declutter" --jobs 2
cp "$tmp/declutter/frame_000440.png" "$out/layout-declutter-0440.png"
"$poiar" replay SampleLogs/walk.csv --filter cafe --report --truth SampleLogs/walk.truth.csv --out "$tmp/report" --jobs 2
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 --no-first-run \
  --user-data-dir="$tmp/chromium" --window-size=1400,1100 --virtual-time-budget=5000 \
  --screenshot="$tmp/report.png" "file://$(cd "$tmp/report" && pwd)/report.html#frame=62" 2> /dev/null
cp "$tmp/report.png" "$out/report.png"
echo "wrote $out/walk-frame.png, walk-scene.png, layout-after-0440.png, layout-declutter-0440.png, report.png"

# Standing on Pohjoisesplanadi looking west along the street, phone upright.
common=(--at 60.1678391,24.9475584,21.4 --heading 262 --pitch 4 --roll 0 --size 720x1280 --hfov 48
        --pois SampleLogs/helsinki-esplanadi.osm --filter cafe --radar-range 800
        --occlusion off --max-cards 100)  # the stacking options alone (docs/layout.md "Layout")
"$poiar" project "${common[@]}" --png "$out/layout-default.png" > /dev/null
"$poiar" project "${common[@]}" --max-stack 2 --png "$out/layout-max-stack.png" > /dev/null
"$poiar" project "${common[@]}" --distance-offset auto --png "$out/layout-distance-offset.png" > /dev/null
echo "wrote $out/layout-*.png"

# docs/phone.md: a simulated phone recording along the same street with no camera of its own
# (so replay takes the phone camera held as recorded): upright, then lowered flat while
# walking on (the map view), then upright again. The base map comes from the Helsinki extract
# when ../shared/data/osm has it, else from the sample's own POI extract (few ways).
mkdir -p "$tmp/phone"
cp SampleLogs/helsinki-esplanadi.osm "$tmp/phone/"
python3 - "$tmp/phone/script.json" <<'PY'
import json, sys
walk = json.load(open("SampleLogs/walk.script.json"))
script = {k: walk[k] for k in ("format", "start_utc", "ground_altitude", "waypoints", "targets")}
script["pois"] = "helsinki-esplanadi.osm"
script["note"] = "docs/phone.md: upright, then flat while walking, then upright (no camera line)"
script["timeline"] = [
    {"stand": 4, "look_at": "Karl Fazer Café", "pitch": 6},
    {"walk_to": 60, "speed": 1.35, "pitch": 4, "transition": 2},
    {"walk_to": 120, "speed": 1.35, "pitch": -82, "transition": 2.5},
    {"walk_to": "pause", "speed": 1.35, "pitch": 4, "transition": 2.5},
]
json.dump(script, open(sys.argv[1], "w"), indent=1)
PY
"$poiar" simulate --script "$tmp/phone/script.json" --out "$tmp/phone/rec.csv" > /dev/null
pois=SampleLogs/helsinki-esplanadi.osm
[ -f "$shared/osm/Helsinki.osm.pbf" ] && pois="$shared/osm/Helsinki.osm.pbf"
"$poiar" replay "$tmp/phone/rec.csv" --pois "$pois" --filter cafe --radar-range 300 --max-distance 300 \
  --out "$tmp/phone/out" --jobs 2
python3 - "$tmp/phone/out" "$out" <<'PY'
import json, shutil, sys
frames = [json.loads(l) for l in open(sys.argv[1] + "/frames.jsonl")]
maps = [f for f in frames if f.get("view") == "map"]
upright = [f for f in frames if f.get("view") is None and abs(f["pose"]["pitch"]) < 10 and f["time"] > 20]
shutil.copy(f"{sys.argv[1]}/{maps[len(maps) // 2]['image']}", f"{sys.argv[2]}/phone-flat-map.png")
shutil.copy(f"{sys.argv[1]}/{upright[len(upright) // 3]['image']}", f"{sys.argv[2]}/phone-upright.png")
PY
echo "wrote $out/phone-flat-map.png and $out/phone-upright.png"

# The GoPro clip over its own video (README, docs/footage.md, docs/layout.md).
"$poiar" replay SampleLogs/gopro-walk.mp4 --pois SampleLogs/gopro-walk.demo-pois.csv --radar-range 300 \
  --out "$tmp/gopro" --jobs 2
cp "$tmp/gopro/frame_000150.png" "$out/gopro-frame.png"
cp "$tmp/gopro/frame_000315.png" "$out/gopro-frame-315.png"
cp Tests/RenderingTests/Fixtures/golden/icons.png "$out/category-icons.png"
echo "wrote $out/gopro-frame.png, gopro-frame-315.png and category-icons.png"

# The real data beside the repository.
if [ -f "$shared/osm/Helsinki.osm.pbf" ]; then
  "$poiar" map SampleLogs/walk.csv --filter cafe,restaurant --basemap "$shared/osm/Helsinki.osm.pbf" --size 1000 \
    --out "$out/walk-map.png"
else
  echo "left out $out/walk-map.png: no $shared/osm/Helsinki.osm.pbf" >&2
fi
if [ -d "$shared/stills/lund" ]; then
  python3 tools/make_lund_log.py --out "$tmp/lund" --stills "$shared/stills/lund"
  "$poiar" replay "$tmp/lund/lund.csv" --radar-range 200 --card-detail address --out "$tmp/lund/frames" --jobs 2
  python3 tools/png_to_jpeg.py "$tmp/lund/frames/frame_000008.png" "$out/lund-frame-08.jpg"
  python3 tools/png_to_jpeg.py "$tmp/lund/frames/frame_000022.png" "$out/lund-frame-22.jpg"
  echo "wrote $out/lund-frame-08.jpg and lund-frame-22.jpg"
else
  echo "left out $out/lund-frame-*.jpg: no $shared/stills/lund" >&2
fi
echo "made the documentation's images in $((SECONDS - start)) s"
