#!/usr/bin/env python3
"""Writes the bad-input corpora of the fuzz targets that found nothing themselves:
Tests/Fixtures/fuzz/{json,source,phone,log}/ (docs/robustness.md, "Fuzzing").

Each file is a small broken input of the target's kind, made here byte by byte: the kinds of
damage the fuzzer tries (cut short, wrong numbers, wrong encodings, structures that lie about
their sizes) and the inputs that crashed the phone importers before their fixes (3-9 in
robustness.md's table, until now written only inline in PhoneImportTests). The
FuzzFindingTests of each test target read every file through the target's reader and ask for
a result or a one-line InputError naming the file; an empty or missing folder fails them.

    python3 tools/make_fuzz_corpora.py          # rewrites the four folders
"""
import gzip
import io
import os
import shutil
import struct
import zipfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "fuzz")


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(ROOT, target, name), "wb") as f:
        f.write(data)


def gz(data):
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as g:
        g.write(data)
    return out.getvalue()


def zipped(files, method=zipfile.ZIP_DEFLATED):
    """A zip archive of `files` (name -> text) with fixed times, so the bytes never change."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        for name, text in files.items():
            info = zipfile.ZipInfo(name, date_time=(2025, 6, 14, 10, 2, 11))
            info.compress_type = method
            z.writestr(info, text)
    return out.getvalue()


# Zip records written field by field (PKWARE APPNOTE 4.3), with the fields a case wants wrong;
# the same layouts as ZipBytes in Tests/PhoneImportTests/FuzzFindingTests.swift.
def eocd(count, cd_size, cd_offset):
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, cd_size, cd_offset, 0)


def zip64_eocd(count, cd_size, cd_offset):
    return struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, cd_size, cd_offset)


def zip64_locator(offset):
    return struct.pack("<IIQI", 0x07064B50, 0, offset, 1)


def one_entry(name, data, offset=None, compressed_size=None):
    """One stored entry; a ZIP64 extra field replaces the local-header offset and/or size."""
    crc = zlib.crc32(data)
    n = name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, crc, len(data), len(data), len(n), 0) + n + data
    extra = b""
    if compressed_size is not None:
        extra += struct.pack("<Q", compressed_size)
    if offset is not None:
        extra += struct.pack("<Q", offset)
    extra_field = struct.pack("<HH", 1, len(extra)) + extra if extra else b""
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 0, 0, 0, crc,
                          0xFFFFFFFF if compressed_size is not None else len(data), len(data),
                          len(n), len(extra_field), 0, 0, 0, 0,
                          0xFFFFFFFF if offset is not None else 0) + n + extra_field
    return local + central + eocd(1, len(central), len(local))


GYRO = "time,seconds_elapsed,z,y,x\n"
PHYPHOX_GYRO = '"Time (s)","Gyroscope x (rad/s)","Gyroscope y (rad/s)","Gyroscope z (rad/s)"\n'


def json_corpus():
    node = '{"type":"node","id":1,"lat":60.1675,"lon":24.9495,"tags":{"amenity":"cafe","name":"Kappeli"}}'
    feature = ('{"type":"Feature","id":"k","properties":{"amenity":"cafe","name":"Kappeli"},'
               '"geometry":{"type":"Point","coordinates":[24.9495,60.1675]}}')
    place = ('{"place_id":"p1","name":"Kappeli","types":["cafe"],'
             '"geometry":{"location":{"lat":60.1675,"lng":24.9495}}}')
    write("json", "cut-short.overpass.json", '{"elements":[' + node[:-30])
    write("json", "latitude-1e400.overpass.json", '{"elements":[' + node.replace("60.1675", "1e400") + "]}")
    write("json", "latitude-off-the-globe.overpass.json", '{"elements":[' + node.replace("60.1675", "91.5") + "]}")
    write("json", "id-past-int64.overpass.json", '{"elements":[' + node.replace('"id":1', '"id":99999999999999999999999') + "]}")
    write("json", "way-with-missing-nodes.overpass.json",
          '{"elements":[{"type":"way","id":7,"nodes":[1,2,3,1],"tags":{"amenity":"cafe"}}]}')
    write("json", "nested-100000-deep.json", "[" * 100000)
    write("json", "lone-surrogate.geojson", '{"type":"FeatureCollection","features":[' + feature.replace("Kappeli", "\\ud800") + "]}")
    write("json", "invalid-utf8.geojson", ('{"type":"FeatureCollection","features":[' + feature + "]}").encode().replace(b"Kappeli", b"Kap\xff\xfeli"))
    write("json", "nan-coordinates.geojson", '{"type":"FeatureCollection","features":[' + feature.replace("[24.9495,60.1675]", "[NaN,Infinity]") + "]}")
    write("json", "coordinates-not-numbers.geojson", '{"type":"FeatureCollection","features":[' + feature.replace("[24.9495,60.1675]", '["24.9",{}]') + "]}")
    write("json", "features-not-an-array.geojson", '{"type":"FeatureCollection","features":{"a":1}}')
    write("json", "results-not-an-array.places.json", '{"status":"OK","results":5}')
    write("json", "location-without-lng.places.json", '{"status":"OK","results":[' + place.replace(',"lng":24.9495', "") + "]}")
    write("json", "byte-order-mark-only.json", b"\xef\xbb\xbf")
    write("json", "empty.json", b"")
    write("json", "utf16-text.geojson", ('{"type":"FeatureCollection","features":[' + feature + "]}").encode("utf-16"))


def source_corpus():
    osm = ('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n'
           '<node id="1" lat="60.1675" lon="24.9495"><tag k="amenity" v="cafe"/><tag k="name" v="Kappeli"/></node>\n</osm>\n').encode()
    csv = b"id,name,category,lat,lon\n1,Kappeli,cafe,60.1675,24.9495\n"
    write("source", "osm-gzip-cut-short.osm.gz", gz(osm)[:-12])
    write("source", "gzip-header-only.gz", gz(osm)[:10])
    write("source", "gzip-crc-wrong.osm.gz", gz(osm)[:-8] + b"\0\0\0\0" + gz(osm)[-4:])
    write("source", "bzip2-magic-then-noise.bz2", b"BZh91AY&SY" + bytes(range(256)) * 2)
    write("source", "csv-unterminated-quote.csv", b'id,name,category,lat,lon\n1,"Kappeli,cafe,60.1675,24.9495\n')
    write("source", "csv-numbers-off-the-globe.csv", b"id,name,category,lat,lon\n1,A,cafe,1e999,24.9\n2,B,cafe,NaN,24.9\n3,C,cafe,91,24.9\n4,D,cafe,60.1,-181\n")
    write("source", "csv-header-only.csv", b"id,name,category,lat,lon\n")
    write("source", "csv-more-fields-than-header.csv", csv + b"2,B,cafe,60.1,24.9,extra,fields\n")
    write("source", "csv-nul-bytes.csv", csv.replace(b"Kappeli", b"Kap\0peli"))
    write("source", "pbf-header-length-huge.osm.pbf", struct.pack(">I", 0x7FFFFFFF) + b"\x0a\x09OSMHeader")
    write("source", "pbf-blob-cut-short.osm.pbf", struct.pack(">I", 13) + b"\x0a\x09OSMHeader\x18\x40" + b"\x10\x05")
    write("source", "osm-xml-unclosed.osm", osm[: osm.index(b"</node>")])
    write("source", "osm-xml-latitude-not-a-number.osm", osm.replace(b'lat="60.1675"', b'lat="sixty"'))
    write("source", "osm-xml-billion-laughs.osm",
          b'<?xml version="1.0"?>\n<!DOCTYPE osm [<!ENTITY a "aaaaaaaaaa">'
          + b"".join(b'<!ENTITY %c "%s">' % (ord("b") + i, (b"&%c;" % (ord("a") + i)) * 10) for i in range(8))
          + b']>\n<osm version="0.6"><node id="1" lat="1" lon="1"><tag k="name" v="&i;"/></node></osm>\n')
    write("source", "zeros.bin", bytes(512))
    write("source", "empty", b"")


def phone_corpus():
    # The crashes of robustness.md's table, 3-9, as whole exports.
    write("phone", "3-first-time-near-int64-min.zip", zipped({"Gyroscope.csv": GYRO + "-9223372036854775807,0,0.01,0.02,0.03\n"}))
    write("phone", "4-time-far-from-the-first.zip", zipped({"Gyroscope.csv": GYRO + "1698501144401773000,0,0.01,0.02,0.03\n-9223372036854775000,0,0.01,0.02,0.03\n"}))
    write("phone", "5-phyphox-start-1e300-s.zip", zipped({
        "Gyroscope.csv": PHYPHOX_GYRO + "0.01,0.1,0.2,0.3\n",
        "meta/time.csv": '"event","experiment time","system time","system time text"\n"START",0.0,1e300,"x"\n'}))
    write("phone", "6-zip64-marker-at-the-start.zip", eocd(0xFFFF, 0, 0))
    cd = zip64_eocd(1, 46, 2**64 - 11)
    write("phone", "7-zip64-central-directory-past-the-end.zip", cd + zip64_locator(0) + eocd(0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF))
    write("phone", "8-zip64-local-header-past-the-end.zip", one_entry("Gyroscope.csv", GYRO.encode(), offset=2**64 - 6))
    write("phone", "9-zip64-compressed-size-past-the-end.zip", one_entry("Gyroscope.csv", GYRO.encode(), compressed_size=2**64 - 6))
    # Other damage of the same kinds.
    good = zipped({"Gyroscope.csv": GYRO + "1749895331000000000,0,0.01,0.02,0.03\n1749895331010000000,0.01,0.01,0.02,0.03\n"})
    write("phone", "cut-in-the-central-directory.zip", good[:-30])
    write("phone", "deflate-data-damaged.zip", good[:40] + bytes(b ^ 0x5A for b in good[40:60]) + good[60:])
    crc_at = good.index(b"PK\x03\x04") + 14
    write("phone", "crc-wrong.zip", good[:crc_at] + b"\xde\xad\xbe\xef" + good[crc_at + 4:])
    write("phone", "empty-archive.zip", eocd(0, 0, 0))
    write("phone", "not-a-zip.zip", b"time,seconds_elapsed,z,y,x\n")
    write("phone", "empty.zip", b"")
    write("phone", "time-not-a-number.zip", zipped({"Gyroscope.csv": GYRO + "soon,0,0.01,0.02,0.03\n"}))
    write("phone", "header-only-files.zip", zipped({"Gyroscope.csv": GYRO, "Accelerometer.csv": GYRO, "Location.csv": ""}))
    write("phone", "entry-leaves-the-archive.zip", zipped({"../Gyroscope.csv": GYRO + "1749895331000000000,0,0.01,0.02,0.03\n"}))
    write("phone", "phyphox-semicolon-decimal-comma-mixed.zip", zipped({
        "Gyroscope.csv": PHYPHOX_GYRO.replace(",", ";") + "0,01;0.1;0,2;x\n"}))


def log_corpus():
    head = "# format: poiar-log/1\ntime,sensor,x,y,z,accuracy\n"
    rows = "0.000,gps,60.1675,24.9495,12.5,4.0\n0.005,gyro,0.0012,-0.0300,0.0051,\n0.005,accel,0.08,9.79,0.31,\n"
    write("log", "no-header.csv", rows)
    write("log", "another-header.csv", "# format: poiar-log/1\ntime,kind,a,b,c\n" + rows)
    write("log", "format-2.csv", head.replace("poiar-log/1", "poiar-log/2") + rows)
    write("log", "gzip-cut-short.csv", gz((head + rows * 50).encode())[:-20])
    write("log", "number-1e400.csv", head + "0.0,gyro,1e400,0,0,\n")
    write("log", "nan-and-infinity.csv", head + "0.0,gyro,nan,0,0,\n0.1,accel,inf,-inf,0,\n")
    write("log", "time-backwards-by-hours.csv", head + rows + "-7200.0,gyro,0,0,0,\n")
    write("log", "time-1e300.csv", head + "1e300,gyro,0,0,0,\n")
    write("log", "gps-off-the-globe.csv", head + "0.0,gps,95.0,200.0,,\n")
    write("log", "too-few-fields.csv", head + "0.0,gyro,0.1\n")
    write("log", "too-many-fields.csv", head + "0.0,gyro,0.1,0.2,0.3,,9,9\n")
    write("log", "invalid-utf8.csv", (head + rows).encode() + b"0.1,fr\xffme,a\xfe.jpg,,,\n")
    write("log", "nul-bytes.csv", (head + rows).encode().replace(b"gyro", b"gy\0ro"))
    write("log", "cr-only-line-ends.csv", (head + rows).replace("\n", "\r"))
    write("log", "metadata-without-header.csv", "# format: poiar-log/1\n# pois: x.osm\n")
    write("log", "empty.csv", "")
    write("log", "binary.csv", bytes(range(256)) * 4)


def main():
    for target, make in [("json", json_corpus), ("source", source_corpus), ("phone", phone_corpus), ("log", log_corpus)]:
        folder = os.path.join(ROOT, target)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        make()
        print(f"{folder}: {len(os.listdir(folder))} files")


if __name__ == "__main__":
    main()
