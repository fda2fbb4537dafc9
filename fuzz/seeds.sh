#!/usr/bin/env bash
# Writes the seed inputs of one fuzz target into a folder: small cuts of the test fixtures
# and sample logs (libFuzzer mutates small inputs faster). Used by fuzz/run.sh.
#   bash fuzz/seeds.sh TARGET REPO_ROOT OUT_DIR
set -euo pipefail
target=$1; root=$2; out=$3
fx=$root/Tests/Fixtures
mkdir -p "$out"
case $target in
  log)
    head -n 60 "$root/SampleLogs/walk.csv" > "$out/walk-head.csv"
    head -n 40 "$fx/phone/look-around.csv" > "$out/look-around-head.csv"
    head -n 30 "$fx/phone/look-around.csv" | gzip -n > "$out/look-around-head.csv.gz"
    # Frame rows, gps rows with empty fields, out-of-order rows, unknown sensors, CRLF.
    printf '# format: poiar-log/1\r\n# pois: x.osm\r\ntime,sensor,x,y,z,accuracy\r\n0.1,gyro,0.01,0.02,0.03,\r\n0.05,accel,0.1,9.8,0.2,\r\n0.2,frame,stills/1.jpg,,,\r\n0.2,gps,60.1,24.9,,\r\n0.3,baro,1,2,3,\r\n0.4,mag,1e1,-3.3E1,-25,0.5\r\n' > "$out/mixed.csv"
    ;;
  phone)
    cp "$fx/phone/phyphox.zip" "$fx/phone/sensorlogger-ios.zip" "$out/"
    # Small stored (uncompressed) exports, whose CSV text the fuzzer mutates directly.
    python3 - "$fx" "$out" <<'PY'
import sys, zipfile, io, os
fx, out = sys.argv[1], sys.argv[2]
def cut(data, n):
    return b"\n".join(data.split(b"\n")[:n]) + b"\n"
android = os.path.join(fx, "phone", "sensorlogger-android")
with zipfile.ZipFile(os.path.join(out, "sensorlogger-small.zip"), "w", zipfile.ZIP_STORED) as z:
    for name in sorted(os.listdir(android)):
        with open(os.path.join(android, name), "rb") as f:
            z.writestr(name, cut(f.read(), 6))
with zipfile.ZipFile(os.path.join(out, "sensorlogger-split.zip"), "w", zipfile.ZIP_STORED) as z:
    for name in ["Gyroscope.csv", "Accelerometer.csv", "Gravity.csv", "Metadata.csv", "Location.csv"]:
        with open(os.path.join(android, name), "rb") as f:
            z.writestr("rec/" + name, cut(f.read(), 5))
for src in ["phyphox.zip", "phyphox-semicolon.zip"]:
    with zipfile.ZipFile(os.path.join(fx, "phone", src)) as zin, \
         zipfile.ZipFile(os.path.join(out, src.replace(".zip", "-small.zip")), "w", zipfile.ZIP_STORED) as z:
        for info in zin.infolist():
            if info.is_dir():
                continue
            z.writestr(info.filename, cut(zin.read(info), 6))
PY
    ;;
  pbf)
    cp "$fx/osm/helsinki-slice.osm.pbf" "$out/"
    # The same file with its zlib blobs stored raw, so mutations reach the protobuf readers.
    python3 "$(dirname "$0")/pbf_raw.py" "$fx/osm/helsinki-slice.osm.pbf" "$out/helsinki-slice-raw.osm.pbf"
    ;;
  json)
    cp "$fx"/web/*.json "$out/"
    head -c 4000 "$fx/osm/SanFrancisco-InnerSunset-excerpt.overpass.json" > "$out/overpass-cut.json"
    printf '{"type":"FeatureCollection","features":[{"type":"Feature","id":"node/1","properties":{"amenity":"cafe","name":"A"},"geometry":{"type":"Point","coordinates":[24.9,60.1]}},{"type":"Feature","properties":{"category":"restaurant"},"geometry":{"type":"Polygon","coordinates":[[[24.9,60.1],[24.91,60.1],[24.91,60.11],[24.9,60.1]]]}},{"type":"Feature","properties":{"shop":"bakery"},"geometry":{"type":"MultiPolygon","coordinates":[[[[1,2],[1.1,2],[1.1,2.1],[1,2]]]]}}]}' > "$out/features.geojson"
    ;;
  osmxml)
    head -c 6000 "$fx/osm/West-Oakland.osm" > "$out/west-oakland-cut.osm"
    printf '<?xml version="1.0"?>\n<osm version="0.6"><node id="1" lat="60.1" lon="24.9"><tag k="amenity" v="cafe"/></node><node id="2" lat="60.2" lon="24.9"/><node id="3" lat="60.2" lon="25"/><way id="5"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="1"/><tag k="amenity" v="restaurant"/><tag k="building" v="yes"/></way><relation id="7"><member type="way" ref="5" role="outer"/><tag k="type" v="multipolygon"/><tag k="shop" v="bakery"/></relation><node id="9" lat="1" lon="2" action="delete"><tag k="amenity" v="atm"/></node></osm>\n' > "$out/small.osm"
    ;;
  source)
    cp "$fx/osm/West-Oakland.osm.gz" "$fx/osm/West-Oakland.osm.bz2" "$fx/pois/sample.csv" "$out/"
    gzip -n < "$fx/web/overpass-center.json" > "$out/overpass-center.json.gz"
    bzip2 < "$fx/pois/sample.csv" > "$out/sample.csv.bz2"
    cp "$fx/web/google-nearby-page2.json" "$out/"
    head -c 3000 "$fx/osm/helsinki-slice.osm.pbf" > "$out/helsinki-slice-cut.osm.pbf"
    ;;
  *) echo "seeds: unknown target $target" >&2; exit 2 ;;
esac
