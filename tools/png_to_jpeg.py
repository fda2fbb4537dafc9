#!/usr/bin/env python3
"""Re-encodes a PNG frame of poiar's (8-bit RGB or RGBA, not interlaced) as a JPEG, for the
documentation's photographs (docs/images/lund-frame-*.jpg: a JPEG is a fifth of the PNG of a
photograph). Decoded here with zlib, encoded with the system's libturbojpeg (the library poiar
reads JPEGs with), so no imaging package is needed.

Usage: python3 tools/png_to_jpeg.py FRAME.png OUT.jpg [--quality 90]
"""
import argparse
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_still_fixtures import jpeg  # noqa: E402  (libturbojpeg through ctypes, as the fixtures are made)


def read_png(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: only 8-bit RGB or RGBA PNGs without interlacing are read here")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        bpp = channels
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + previous[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def write_jpeg(path, width, height, channels, rows, quality):
    pixel_format = 0 if channels == 3 else 7  # TJPF_RGB, TJPF_RGBA
    subsampling_420 = 2
    with open(path, "wb") as f:
        f.write(jpeg(b"".join(rows), width, height, pixel_format, channels, subsampling_420, quality=quality))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("png")
    p.add_argument("jpeg")
    p.add_argument("--quality", type=int, default=90)
    args = p.parse_args()
    write_jpeg(args.jpeg, *read_png(args.png), args.quality)


if __name__ == "__main__":
    main()
