#!/usr/bin/env python3
"""Writes the small still fixtures of RenderingTests: JPEGs of each kind and EXIF orientation.

    python3 tools/make_still_fixtures.py      # -> Tests/RenderingTests/Fixtures/*.jpg, exif-6.png

JPEGs are encoded with the system's libturbojpeg (the library poiar decodes with, through
ctypes: no Python packages needed); EXIF blocks and PNG chunks are written by hand.

The upright picture is 24 x 16 pixels: 3 x 2 blocks of 8 x 8 pixels in six colours (BLOCKS),
so every one of the 8 EXIF orientations gives a different stored image. 4:4:4 sampling at
quality 95 keeps each block's colour within a few levels; StillOrientationTests checks the
centres of the blocks.

  exif-N.jpg  (N = 1..8)  stored so that EXIF orientation N shows the upright picture
  exif-6.png              the same for orientation 6, as an 8-bit RGB PNG with an eXIf chunk
  grey.jpg                greyscale (one component), the blocks' luma
  progressive.jpg         progressive JPEG, 4:2:0, no EXIF
  cmyk.jpg                Adobe CMYK JPEG (TurboJPEG writes YCCK) of the blocks
  exif-bad.jpg            exif-6.jpg with a damaged EXIF block (IFD offset past the end):
                          decodes as stored

Orientation meanings (EXIF 2.32, CIPA DC-008, Orientation tag 0x0112), as the stored image
must be turned for display: 1 as is, 2 mirror left-right, 3 turn 180, 4 mirror top-bottom,
5 transpose, 6 turn 90 clockwise, 7 transverse, 8 turn 90 anticlockwise. So the stored image
is the upright one with the inverse applied: 6 stores it turned anticlockwise, 8 clockwise.
"""
import ctypes
import ctypes.util
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "RenderingTests", "Fixtures")

BLOCKS = [[(220, 40, 40), (40, 180, 60), (40, 80, 220)],
          [(240, 220, 40), (200, 60, 200), (30, 30, 30)]]
W, H, B = 24, 16, 8

TJPF_RGB, TJPF_GRAY, TJPF_CMYK = 0, 6, 11
TJSAMP_444, TJSAMP_420, TJSAMP_GRAY = 0, 2, 3
TJFLAG_PROGRESSIVE = 16384


def upright():
    return [[BLOCKS[y // B][x // B] for x in range(W)] for y in range(H)]


# Image operations on row lists.
def flip_lr(img): return [row[::-1] for row in img]
def flip_tb(img): return img[::-1]
def transpose(img): return [list(col) for col in zip(*img)]
def turn_cw(img): return flip_lr(transpose(img))     # 90 degrees clockwise
def turn_ccw(img): return flip_tb(transpose(img))    # 90 degrees anticlockwise


STORED = {
    1: lambda i: i,
    2: flip_lr,
    3: lambda i: flip_lr(flip_tb(i)),
    4: flip_tb,
    5: transpose,
    6: turn_ccw,
    7: lambda i: flip_lr(flip_tb(transpose(i))),  # transverse: the other diagonal
    8: turn_cw,
}

tj = ctypes.CDLL(ctypes.util.find_library("turbojpeg") or "libturbojpeg.so.0")
tj.tjInitCompress.restype = ctypes.c_void_p
tj.tjCompress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                           ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_ulong), ctypes.c_int, ctypes.c_int,
                           ctypes.c_int]
tj.tjFree.argtypes = [ctypes.c_void_p]
tj.tjDestroy.argtypes = [ctypes.c_void_p]


def jpeg(pixels, width, height, pixel_format, channels, subsampling, flags=0, quality=95):
    handle = tj.tjInitCompress()
    buffer, size = ctypes.c_void_p(), ctypes.c_ulong(0)
    status = tj.tjCompress2(handle, bytes(pixels), width, width * channels, height, pixel_format,
                            ctypes.byref(buffer), ctypes.byref(size), subsampling, quality, flags)
    if status != 0:
        raise RuntimeError("tjCompress2 failed")
    data = ctypes.string_at(buffer, size.value)
    tj.tjFree(buffer)
    tj.tjDestroy(handle)
    return data


def rgb_bytes(img):
    return b"".join(bytes(p) for row in img for p in row)


def exif_tiff(orientation, big_endian):
    """A TIFF structure with IFD0 holding one entry, Orientation (SHORT, count 1)."""
    e = ">" if big_endian else "<"
    header = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    ifd = struct.pack(e + "H", 1) + struct.pack(e + "HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(e + "I", 0)
    return header + ifd


def with_app1(jpeg_bytes, tiff):
    """Inserts an APP1 Exif segment right after SOI (before TurboJPEG's JFIF APP0)."""
    body = b"Exif\x00\x00" + tiff
    return jpeg_bytes[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg_bytes[2:]


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_rgb(img, extra_chunks):
    height, width = len(img), len(img[0])
    raw = b"".join(b"\x00" + b"".join(bytes(p) for p in row) for row in img)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + b"".join(extra_chunks) + png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b""))


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    up = upright()
    for n, op in STORED.items():
        stored = op(up)
        h, w = len(stored), len(stored[0])
        data = jpeg(rgb_bytes(stored), w, h, TJPF_RGB, 3, TJSAMP_444)
        # Alternate byte orders so both TIFF readers are exercised.
        write(f"exif-{n}.jpg", with_app1(data, exif_tiff(n, big_endian=n % 2 == 0)))
    stored6 = STORED[6](up)
    write("exif-6.png", png_rgb(stored6, [png_chunk(b"eXIf", exif_tiff(6, big_endian=True))]))
    grey = [[(r * 299 + g * 587 + b * 114) // 1000 for (r, g, b) in row] for row in up]
    write("grey.jpg", jpeg(bytes(v for row in grey for v in row), W, H, TJPF_GRAY, 1, TJSAMP_GRAY))
    write("progressive.jpg", jpeg(rgb_bytes(up), W, H, TJPF_RGB, 3, TJSAMP_420, flags=TJFLAG_PROGRESSIVE))
    # CMYK as Adobe stores it (inverted, 255 = no ink), so that the naive R = C·K/255 gives r back.
    cmyk = b""
    for row in up:
        for (r, g, b) in row:
            k = max(r, g, b)
            if k == 0:
                cmyk += bytes([255, 255, 255, 0])
            else:
                cmyk += bytes([r * 255 // k, g * 255 // k, b * 255 // k, k])
    write("cmyk.jpg", jpeg(cmyk, W, H, TJPF_CMYK, 4, TJSAMP_444))
    bad = bytearray(with_app1(jpeg(rgb_bytes(stored6), H, W, TJPF_RGB, 3, TJSAMP_444), exif_tiff(6, big_endian=False)))
    ifd_offset = bad.index(b"II*\x00") + 4
    bad[ifd_offset:ifd_offset + 4] = struct.pack("<I", 0xFFFF)
    write("exif-bad.jpg", bytes(bad))


if __name__ == "__main__":
    main()
