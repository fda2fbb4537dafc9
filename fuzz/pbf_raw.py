#!/usr/bin/env python3
"""Rewrites an OSM PBF file with every zlib blob stored raw (a fuzz seed: mutations of raw
blobs reach the protobuf readers instead of failing the zlib check).
Usage: python3 fuzz/pbf_raw.py IN.osm.pbf OUT.osm.pbf"""
import pathlib
import struct
import sys
import zlib


# The protobuf helpers of the fixture maker (one copy of them in the repository).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
from make_pbf_fixture import enc_varint, fields  # noqa: E402


def blob_content(blob):
    for field, _, value in fields(blob):
        if field == 1:
            return bytes(value)
        if field == 3:
            return zlib.decompress(value)
    raise ValueError("no data")


src = open(sys.argv[1], "rb").read()
out = bytearray()
i = 0
while i < len(src):
    (hlen,) = struct.unpack(">I", src[i:i + 4])
    header = src[i + 4:i + 4 + hlen]
    htype, size = None, None
    for field, _, value in fields(header):
        if field == 1:
            htype = bytes(value)
        elif field == 3:
            size = value
    blob = src[i + 4 + hlen:i + 4 + hlen + size]
    i += 4 + hlen + size
    raw = blob_content(blob)
    new_blob = b"\x0a" + enc_varint(len(raw)) + raw
    new_header = b"\x0a" + enc_varint(len(htype)) + htype + b"\x18" + enc_varint(len(new_blob))
    out += struct.pack(">I", len(new_header)) + new_header + new_blob
open(sys.argv[2], "wb").write(out)
