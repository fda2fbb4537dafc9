#!/usr/bin/env python3
"""Rewrites an OSM PBF file with every zlib blob stored raw (a fuzz seed: mutations of raw
blobs reach the protobuf readers instead of failing the zlib check).
Usage: python3 fuzz/pbf_raw.py IN.osm.pbf OUT.osm.pbf"""
import struct
import sys
import zlib


def varint(buf, i):
    result = shift = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7


def enc_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def fields(buf):
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 2:
            n, i = varint(buf, i)
            value = buf[i:i + n]
            i += n
        else:
            raise ValueError("wire type %d" % wire)
        yield field, wire, value


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
