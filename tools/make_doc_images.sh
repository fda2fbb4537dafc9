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
        --pois SampleLogs/helsinki-esplanadi.osm --filter cafe --radar-range 800
        --occlusion off --max-cards 100)  # the stacking options alone (docs/layout.md "Layout")
"$poiar" project "${common[@]}" --png "$out/layout-default.png" > /dev/null
"$poiar" project "${common[@]}" --max-stack 2 --png "$out/layout-max-stack.png" > /dev/null
"$poiar" project "${common[@]}" --distance-offset auto --png "$out/layout-distance-offset.png" > /dev/null
echo "wrote $out/walk-frame.png and $out/layout-*.png"

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
[ -f ../shared/data/osm/Helsinki.osm.pbf ] && pois=../shared/data/osm/Helsinki.osm.pbf
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
