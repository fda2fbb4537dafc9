#!/usr/bin/env python3
"""Writes the small PNG fixtures for RenderingTests, one per colour type / bit depth.

Run once from this folder (python3 make_fixtures.py); the outputs are committed.
Every image is 10x7 pixels with content given by the formulas below, which
PNGDecodeTests.swift repeats to check the decoded pixels exactly.

  red(x, y)   = 25 * x
  green(x, y) = 35 * y
  blue(x, y)  = 10 * (x + y) + 5
  alpha(x, y) = 255 - 20 * x
  grey(x, y)  = 20 * x + 10 * y
  palette index(x, y) = (x + y) % 4, palette PALETTE, entry 3 half transparent (tRNS)
  grey2(x, y) = (x + 2 * y) % 4  (2-bit grey: decodes to 0, 85, 170, 255)

PNG layout from the PNG specification (W3C, 2nd edition): signature, IHDR, [PLTE,
tRNS,] IDAT (zlib of filter-type-0 scanlines), IEND; Adam7 passes for interlacing.
"""
import struct
import zlib

W, H = 10, 7
PALETTE = [(200, 30, 40), (20, 180, 60), (30, 60, 220), (250, 250, 10)]
PALETTE_ALPHA = [255, 255, 255, 128]


def red(x, y): return 25 * x
def green(x, y): return 35 * y
def blue(x, y): return 10 * (x + y) + 5
def alpha(x, y): return 255 - 20 * x
def grey(x, y): return 20 * x + 10 * y


def grey2(x, y): return (x + 2 * y) % 4


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pixel_bytes(kind, x, y):
    if kind == "rgb8":
        return bytes([red(x, y), green(x, y), blue(x, y)])
    if kind == "rgba8":
        return bytes([red(x, y), green(x, y), blue(x, y), alpha(x, y)])
    if kind == "grey8":
        return bytes([grey(x, y)])
    if kind == "greyalpha8":
        return bytes([grey(x, y), alpha(x, y)])
    if kind.startswith("palette"):
        return bytes([(x + y) % 4])
    if kind == "rgb16":
        # Low bytes are not zero, so decoding must round 16 -> 8 bits, not truncate.
        return b"".join(struct.pack(">H", v * 257 + 100 if v * 257 + 100 <= 65535 else v * 257)
                        for v in (red(x, y), green(x, y), blue(x, y)))
    raise ValueError(kind)


COLOUR_TYPE = {"grey2": (2, 0), "palette2": (2, 3), "rgb8": (8, 2), "rgba8": (8, 6), "grey8": (8, 0), "greyalpha8": (8, 4),
               "palette8": (8, 3), "rgb16": (16, 2)}

# Adam7: (x start, y start, x step, y step) per pass.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def packed_row(kind, xs, y):
    """One scanline's bytes (without the filter byte); 2-bit samples packed MSB first."""
    if kind == "grey2" or kind == "palette2":
        samples = [grey2(x, y) if kind == "grey2" else (x + y) % 4 for x in xs]
        samples += [0] * (-len(samples) % 4)
        return bytes((a << 6) | (b << 4) | (c << 2) | d
                     for a, b, c, d in zip(*[iter(samples)] * 4))
    return b"".join(pixel_bytes(kind, x, y) for x in xs)


def scanlines(kind, interlaced):
    if not interlaced:
        return b"".join(b"\x00" + packed_row(kind, range(W), y) for y in range(H))
    out = b""
    for x0, y0, dx, dy in ADAM7:
        xs, ys = range(x0, W, dx), range(y0, H, dy)
        if not xs or not ys:
            continue
        for y in ys:
            out += b"\x00" + packed_row(kind, xs, y)
    return out


def write(name, kind, interlaced=False):
    depth, colour_type = COLOUR_TYPE[kind]
    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, depth, colour_type, 0, 0, 1 if interlaced else 0))
    if kind.startswith("palette"):
        data += chunk(b"PLTE", b"".join(bytes(c) for c in PALETTE))
        data += chunk(b"tRNS", bytes(PALETTE_ALPHA))
    data += chunk(b"IDAT", zlib.compress(scanlines(kind, interlaced), 9))
    data += chunk(b"IEND", b"")
    with open(name, "wb") as f:
        f.write(data)


write("rgb8.png", "rgb8")
write("rgba8.png", "rgba8")
write("grey8.png", "grey8")
write("greyalpha8.png", "greyalpha8")
write("palette8.png", "palette8")
write("rgb16.png", "rgb16")
write("grey2.png", "grey2")
write("palette2-interlaced.png", "palette2", interlaced=True)
write("rgba8-interlaced.png", "rgba8", interlaced=True)
write("rgb16-interlaced.png", "rgb16", interlaced=True)
