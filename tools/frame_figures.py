#!/usr/bin/env python3
"""Figures of a replay's frames.jsonl on what a frame shows (docs/layout.md "Figures"):

- cards on frames with POIs in the picture: of the frames where a POI in sight (not marked
  occluded) has its anchor on the image and no more such POIs than --max-cards, how many give
  every one of them a card or a place in a cluster card; and of those POIs, how many get one;
- arrows over anchors: frames where an edge arrow (its triangle and its name-and-distance pill)
  covers (any part of) the anchor dot of a POI marked on the image (a card's, a dot's, a cluster member's), and
  how many arrows do;
- arrows over cards: the same against the boxes of the cards drawn (single and cluster cards),
  overlaps deeper than a pixel (rounding); and how many arrows show their
  distance alone (`"short": true`: no room for the name).

The arrow's pill is measured as the renderer's `IndicatorGeometry` sets it: its text in DejaVu
Sans at 13 px at 720 px, each character's advance width read from the font file (no kerning,
as the renderer); long texts are cut at 40 % of the width (the renderer ellipsises them).

Usage: python3 tools/frame_figures.py OUT/frames.jsonl [--max-cards 10] [--scale S] [--frames]
(--scale: pixels per 720-px design pixel; default the renderer's rule for the frame's size).
"""
import argparse
import json
import math
import struct


def advance_widths(path="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
    """The font's advance width of each character, in em (its cmap format 4 and hmtx tables),
    so a pill's width is the renderer's (which sets the text in this font without kerning)."""
    data = open(path, "rb").read()
    tables = {data[12 + 16 * i:16 + 16 * i].decode("latin-1"): struct.unpack(">II", data[20 + 16 * i:28 + 16 * i])
              for i in range(struct.unpack(">H", data[4:6])[0])}
    units = struct.unpack(">H", data[tables["head"][0] + 18:tables["head"][0] + 20])[0]
    metrics = struct.unpack(">H", data[tables["hhea"][0] + 34:tables["hhea"][0] + 36])[0]
    hmtx = tables["hmtx"][0]
    advance = [struct.unpack(">H", data[hmtx + 4 * i:hmtx + 4 * i + 2])[0] / units for i in range(metrics)]
    cmap = tables["cmap"][0]
    widths = {}
    for i in range(struct.unpack(">H", data[cmap + 2:cmap + 4])[0]):
        platform, encoding, offset = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
        sub = cmap + offset
        if platform != 3 or encoding != 1 or struct.unpack(">H", data[sub:sub + 2])[0] != 4:
            continue
        n = struct.unpack(">H", data[sub + 6:sub + 8])[0] // 2
        ends = struct.unpack(f">{n}H", data[sub + 14:sub + 14 + 2 * n])
        starts = struct.unpack(f">{n}H", data[sub + 16 + 2 * n:sub + 16 + 4 * n])
        deltas = struct.unpack(f">{n}h", data[sub + 16 + 4 * n:sub + 16 + 6 * n])
        range_at = sub + 16 + 6 * n
        offsets = struct.unpack(f">{n}H", data[range_at:range_at + 2 * n])
        for k in range(n):
            for c in range(starts[k], min(ends[k], 0xFFFE) + 1):
                if offsets[k] == 0:
                    glyph = (c + deltas[k]) & 0xFFFF
                else:
                    at = range_at + 2 * k + offsets[k] + 2 * (c - starts[k])
                    glyph = struct.unpack(">H", data[at:at + 2])[0]
                    glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                widths[chr(c)] = advance[min(glyph, metrics - 1)]
        break
    return widths


WIDTHS = advance_widths()


def text_width(text, font):
    return sum(WIDTHS.get(ch, 0.6) for ch in text) * font


def design_scale(w, h):
    shorter = min(w, h)
    return shorter / 720 if shorter >= 720 else min(1.0, shorter / 480)


def arrow_boxes(o, text, s, w, h):
    """The arrow's triangle and its pill, as boxes (x0, y0, x1, y1)."""
    a = math.radians(o["angle_deg"])
    dx, dy = math.cos(a), math.sin(a)
    tip = (o["x"], o["y"])
    length, half = 18 * s, 10 * s
    base = (tip[0] - dx * length, tip[1] - dy * length)
    pts = [tip, (base[0] - dy * half, base[1] + dx * half), (base[0] + dy * half, base[1] - dx * half)]
    tri = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
    font = 13 * s
    pw = min(text_width(text, font), 0.4 * w) + 14 * s
    ph = font * 1.17 + 8 * s
    if abs(dx) >= abs(dy):
        cx, cy = tip[0] - dx * (length / 2 + pw / 2), tip[1] + half + 6 * s + ph / 2
    else:
        cx, cy = tip[0], tip[1] - dy * (length + 6 * s + ph / 2)
    cx = min(max(cx, pw / 2 + 2 * s), w - pw / 2 - 2 * s)
    cy = min(max(cy, ph / 2 + 2 * s), h - ph / 2 - 2 * s)
    return [tri, (cx - pw / 2, cy - ph / 2, cx + pw / 2, cy + ph / 2)]


def distance_text(d):
    return f"{round(d)} m" if d < 999.5 else f"{d / 1000:.1f} km"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("manifest")
    ap.add_argument("--max-cards", type=int, default=10)
    ap.add_argument("--scale", type=float)
    ap.add_argument("--frames", action="store_true", help="list the frames counted as failing")
    args = ap.parse_args()
    frames = [json.loads(line) for line in open(args.manifest)]
    in_pic_frames = all_covered = pois = covered = 0
    arrow_frames = arrows_over = arrows = 0
    card_frames = arrows_over_cards = short = 0
    missing, covering, covering_cards = [], [], []
    for f in frames:
        w, h = f["camera"]["width"], f["camera"]["height"]
        s = args.scale or design_scale(w, h)
        anns = f.get("annotations", [])

        def on_image(a):
            return a.get("anchor_x") is not None and 0 <= a["anchor_x"] <= w and 0 <= a["anchor_y"] <= h

        in_pic = [a for a in anns if on_image(a) and a.get("occluded") is not True]
        if in_pic and len(in_pic) <= args.max_cards:
            in_pic_frames += 1
            got = [a for a in in_pic if a["visible"] or a.get("cluster") is not None]
            pois += len(in_pic)
            covered += len(got)
            if len(got) == len(in_pic):
                all_covered += 1
            else:
                missing.append(f["frame"])
        marked = [(a["anchor_x"], a["anchor_y"]) for a in anns
                  if on_image(a) and (a["visible"] or a.get("marker") or a.get("cluster") is not None)]
        marked += [(c["anchor"]["x"], c["anchor"]["y"]) if isinstance(c.get("anchor"), dict) else (c["anchor_x"], c["anchor_y"])
                   for c in f.get("clusters", [])]
        cards = [(b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"])
                 for b in [a.get("box") for a in anns if a["visible"]] + [c.get("box") for c in f.get("clusters", [])] if b]
        hit = hit_card = False
        for a in anns:
            o = a.get("offscreen")
            if not o:
                continue
            arrows += 1
            name = a["name"] or a["category"]
            short += bool(o.get("short"))
            text = distance_text(a["distance_m"]) if o.get("short") else f"{name} · {distance_text(a['distance_m'])}"
            boxes = arrow_boxes(o, text, s, w, h)
            slack = 1 * s  # rounding
            if any(x0 + slack < c[2] and c[0] < x1 - slack and y0 + slack < c[3] and c[1] < y1 - slack
                   for c in cards for (x0, y0, x1, y1) in boxes):
                arrows_over_cards += 1
                hit_card = True
            r = 6.5 * s  # the anchor dot with its white ring and halo
            if any(x0 - r <= x <= x1 + r and y0 - r <= y <= y1 + r for (x, y) in marked for (x0, y0, x1, y1) in boxes):
                arrows_over += 1
                hit = True
        if hit:
            arrow_frames += 1
            covering.append(f["frame"])
        if hit_card:
            card_frames += 1
            covering_cards.append(f["frame"])
    print(f"frames: {len(frames)}")
    print(f"frames with 1..{args.max_cards} POIs in the picture: {in_pic_frames}; every one with a card or cluster card: "
          f"{all_covered}; POIs with one: {covered} of {pois}")
    print(f"arrows over an anchor: {arrows_over} of {arrows} arrows, on {arrow_frames} frames")
    print(f"arrows over a card: {arrows_over_cards} of {arrows} arrows, on {card_frames} frames; "
          f"arrows with their distance alone: {short}")
    if args.frames:
        print("frames missing a card:", missing)
        print("frames with an arrow over an anchor:", covering)
        print("frames with an arrow over a card:", covering_cards)


if __name__ == "__main__":
    main()
