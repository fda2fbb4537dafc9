"""Reference frame pipeline in Python with Pillow, for benchmarks/render.sh.

Does per frame the work `poiar bench-render` times: decode the JPEG still, draw the same
labels (labels.json, written by poiar: boxes, names, distances, leader anchors) as rounded
cards with a category stripe, two lines of text (DejaVu Sans Bold / Sans), a leader line and
an anchor dot, then encode a PNG at the same zlib level. Pillow draws them opaque straight on
the RGB image (no alpha blending, no shadows), which is less work than poiar's translucent
cards: the comparison flatters Pillow.

    python ref_render.py STILL LABELS_JSON --iterations N --level L --out DIR
Prints one line with the median milliseconds of each stage.
"""
import argparse
import json
import os
import statistics
import time

from PIL import Image, ImageDraw, ImageFont

COLOURS = {"cafe": (0x8D, 0x5B, 0x3E), "restaurant": (0xD9, 0x4F, 0x2B), "bar": (0x7B, 0x3F, 0x9E)}
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
REGULAR = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("still")
    ap.add_argument("labels")
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--level", type=int, default=6)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    labels = json.load(open(a.labels))
    probe = Image.open(a.still)
    scale = min(probe.size) / 720
    name_font = ImageFont.truetype(BOLD, round(17 * scale))
    detail_font = ImageFont.truetype(REGULAR, round(13 * scale))
    out = os.path.join(a.out, "ref-frame.png")
    decode, draw, encode, frame = [], [], [], []
    for _ in range(a.iterations):
        t0 = time.perf_counter()
        im = Image.open(a.still)
        im.load()
        im = im.convert("RGB")
        t1 = time.perf_counter()
        d = ImageDraw.Draw(im)
        for lab in reversed(labels):
            x, y, w, h = lab["x"], lab["y"], lab["w"], lab["h"]
            colour = COLOURS.get(lab["category"], (0x60, 0x60, 0x60))
            if lab["anchor_x"] is not None:
                ax, ay = lab["anchor_x"], lab["anchor_y"]
                d.line([(x + w / 2, y + h), (ax, ay)], fill=(255, 255, 255), width=max(1, round(1.5 * scale)))
                r = 4 * scale
                d.ellipse([ax - r - 1.5 * scale, ay - r - 1.5 * scale, ax + r + 1.5 * scale, ay + r + 1.5 * scale], fill=(255, 255, 255))
                d.ellipse([ax - r, ay - r, ax + r, ay + r], fill=colour)
            d.rounded_rectangle([x, y, x + w, y + h], radius=8 * scale, fill=(255, 255, 255), outline=(225, 225, 225))
            d.rectangle([x, y + 4 * scale, x + 5 * scale, y + h - 4 * scale], fill=colour)
            d.text((x + 14 * scale, y + 6 * scale), lab["name"], font=name_font, fill=(0x20, 0x21, 0x24))
            d.text((x + 14 * scale, y + 6 * scale + 20 * scale), lab["detail"], font=detail_font, fill=(0x5F, 0x63, 0x68))
        t2 = time.perf_counter()
        im.save(out, "PNG", compress_level=a.level)
        t3 = time.perf_counter()
        decode.append(t1 - t0)
        draw.append(t2 - t1)
        encode.append(t3 - t2)
        frame.append(t3 - t0)
    ms = lambda v: statistics.median(v) * 1e3
    print(f"pillow: {im.size[0]}×{im.size[1]}, {len(labels)} labels, {a.iterations} iterations (medians): "
          f"frame {ms(frame):.2f} ms (decode {ms(decode):.2f}, draw {ms(draw):.2f}, encode {ms(encode):.2f}; "
          f"PNG {os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
