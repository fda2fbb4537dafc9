#!/usr/bin/env python3
"""line_of_sight_check.py - check a replay's labels against OSM building footprints.

An independent check of issue 14's targets, from frames.jsonl and the OSM XML the
buildings came from (Python's standard library only; it shares no code with poiar):

* a label is *in line of sight* when, in 2-D, the segment from the device to the POI
  crosses no building footprint except ones within 15 m of the POI (its own building, a
  node mapped at the door) or holding the device (GPS error puts a walker in the facade);
* drawn labels are cards with `visible: true` and opacity >= 0.5 (a card fading out
  after its POI went behind a building is a ghost, not a label), plus cluster cards;
* "in view" is an anchor on the image.

Prints the figures as JSON; with --check, exits 1 when a target is missed:
  >= 95 % of drawn single cards in line of sight; >= 90 % of frames with a POI in sight in
  view carry a label; <= 12 cards on every frame; every card box inside the image; no
  card box or leader line over the HUD (the default HUD's areas, from docs/layout.md's
  geometry: the compass tape 40 px along the top, the GPS pill 197 x 22 px at (12, 48), the
  radar's 150 px square 12 px from the bottom-left corner; px at 720, scaled with
  min(width, height) / 720; --no-hud for a replay with --hud none).

Usage: python3 tools/line_of_sight_check.py OUT/frames.jsonl SOURCE.osm [--check] [--no-hud]
"""
import json
import math
import sys
import xml.etree.ElementTree as ET

NEAR_POI_M = 15.0


def read_buildings(path):
    """Closed `building=*` ways and the outer rings of `building=*` multipolygons, as lists
    of (lat, lon)."""
    nodes, ways, rels = {}, {}, []
    for _, el in ET.iterparse(path, events=("end",)):
        if el.tag == "node":
            nodes[el.get("id")] = (float(el.get("lat")), float(el.get("lon")))
        elif el.tag == "way":
            tags = {t.get("k"): t.get("v") for t in el.findall("tag")}
            ways[el.get("id")] = ([nd.get("ref") for nd in el.findall("nd")], tags)
        elif el.tag == "relation":
            tags = {t.get("k"): t.get("v") for t in el.findall("tag")}
            members = [(m.get("type"), m.get("ref"), m.get("role")) for m in el.findall("member")]
            rels.append((members, tags))
        if el.tag in ("way", "relation"):
            el.clear()

    def coords(refs):
        if any(r not in nodes for r in refs):
            return None
        return [nodes[r] for r in refs]

    polygons = []
    for refs, tags in ways.values():
        if tags.get("building", "no") != "no" and len(refs) >= 4 and refs[0] == refs[-1]:
            ring = coords(refs)
            if ring:
                polygons.append(ring)
    for members, tags in rels:
        if tags.get("type") != "multipolygon" or tags.get("building", "no") == "no":
            continue
        parts = [ways[ref][0] for (t, ref, role) in members if t == "way" and role != "inner" and ref in ways]
        # Join open ways end to end into rings.
        parts = [list(p) for p in parts if p]
        while parts:
            ring = parts.pop(0)
            changed = True
            while ring[0] != ring[-1] and changed:
                changed = False
                for i, p in enumerate(parts):
                    if p[0] == ring[-1]:
                        ring += p[1:]
                    elif p[-1] == ring[-1]:
                        ring += p[-2::-1]
                    else:
                        continue
                    parts.pop(i)
                    changed = True
                    break
            if ring[0] == ring[-1] and len(ring) >= 4:
                c = coords(ring)
                if c:
                    polygons.append(c)
    return polygons


class Plane:
    """Equirectangular metres around an origin (good to centimetres over a few km)."""

    def __init__(self, lat, lon):
        self.lat0, self.lon0 = lat, lon
        self.kx = math.cos(math.radians(lat)) * 111320.0
        self.ky = 110574.0

    def xy(self, lat, lon):
        return ((lon - self.lon0) * self.kx, (lat - self.lat0) * self.ky)


def segments_cross(p, q, a, b):
    def orient(u, v, w):
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    d1, d2 = orient(a, b, p), orient(a, b, q)
    d3, d4 = orient(p, q, a), orient(p, q, b)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def inside(ring, p):
    c = False
    j = len(ring) - 1
    for i in range(len(ring)):
        (xi, yi), (xj, yj) = ring[i], ring[j]
        if (yi > p[1]) != (yj > p[1]) and p[0] < (xj - xi) * (p[1] - yi) / (yj - yi) + xi:
            c = not c
        j = i
    return c


def distance_to(ring, p):
    if inside(ring, p):
        return 0.0
    best = float("inf")
    for i in range(len(ring) - 1):
        a, b = ring[i], ring[i + 1]
        abx, aby = b[0] - a[0], b[1] - a[1]
        l2 = abx * abx + aby * aby
        t = 0 if l2 == 0 else max(0, min(1, ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / l2))
        best = min(best, math.hypot(p[0] - a[0] - t * abx, p[1] - a[1] - t * aby))
    return best


class Footprints:
    def __init__(self, polygons, origin):
        self.plane = Plane(*origin)
        self.rings = []
        for poly in polygons:
            ring = [self.plane.xy(lat, lon) for lat, lon in poly]
            xs, ys = [x for x, _ in ring], [y for _, y in ring]
            self.rings.append((ring, (min(xs), min(ys), max(xs), max(ys))))

    def in_sight(self, device, poi):
        d, t = self.plane.xy(*device), self.plane.xy(*poi)
        lo = (min(d[0], t[0]), min(d[1], t[1]))
        hi = (max(d[0], t[0]), max(d[1], t[1]))
        for ring, (x0, y0, x1, y1) in self.rings:
            if x1 < lo[0] or x0 > hi[0] or y1 < lo[1] or y0 > hi[1]:
                continue
            crosses = inside(ring, d) or inside(ring, t) or any(
                segments_cross(d, t, ring[i], ring[i + 1]) for i in range(len(ring) - 1))
            if not crosses:
                continue
            if inside(ring, d) or distance_to(ring, t) <= NEAR_POI_M:
                continue
            return False
        return True


def rects_overlap(a, b):
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def hud_areas(w, h):
    """The default HUD's parts on a w x h frame (docs/layout.md, "The HUD's areas")."""
    s = min(w, h) / 720.0
    return [{"x": 0, "y": 0, "w": w, "h": round(40 * s)},
            {"x": round(12 * s), "y": round(48 * s), "w": 197 * s, "h": 22 * s},
            {"x": 12 * s, "y": h - 12 * s - 150 * s, "w": 150 * s, "h": 150 * s}]


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    frames = [json.loads(line) for line in open(argv[1], encoding="utf-8") if line.strip()]
    frames = [f for f in frames if "frame" in f]
    if not frames:
        print("no frames", file=sys.stderr)
        return 2
    polygons = read_buildings(argv[2])
    first = frames[0]["location"]
    footprints = Footprints(polygons, (first["lat"], first["lon"]))
    cache = {}

    def sight(f, a):
        key = (round(f["location"]["lat"], 7), round(f["location"]["lon"], 7), a["id"])
        if key not in cache:
            cache[key] = footprints.in_sight((f["location"]["lat"], f["location"]["lon"]), (a["lat"], a["lon"]))
        return cache[key]

    drawn = drawn_in_sight = 0
    marked = marked_blocked = 0
    frames_with_sight = frames_labelled = 0
    cards_per_frame = []
    outside = hud_hits = 0
    for f in frames:
        w, h = f["camera"]["width"], f["camera"]["height"]
        keep_out = [] if "--no-hud" in argv else hud_areas(w, h)
        cards = 0
        labelled = False
        sight_in_view = False
        boxes = []
        for a in f["annotations"]:
            on_image = a["anchor_x"] is not None and 0 <= a["anchor_x"] <= w and 0 <= a["anchor_y"] <= h
            if a["visible"]:
                cards += 1
                boxes.append((a["box"], (a["anchor_x"], a["anchor_y"])))
                if a.get("opacity", 1) >= 0.5:
                    drawn += 1
                    labelled = True
                    drawn_in_sight += sight(f, a)
            if on_image and a.get("occluded") is True:
                marked += 1
                marked_blocked += not sight(f, a)
            if on_image and f.get("view") != "map" and sight(f, a):
                sight_in_view = True
        for c in f.get("clusters", []):
            cards += 1
            labelled = True
            boxes.append((c["box"], (c["anchor_x"], c["anchor_y"])))
        for box, (ax, ay) in boxes:
            if box["x"] < -0.5 or box["y"] < -0.5 or box["x"] + box["w"] > w + 0.5 or box["y"] + box["h"] > h + 0.5:
                outside += 1
            leader = None
            if ay is not None and ay > box["y"] + box["h"]:
                x = min(max(ax, box["x"]), box["x"] + box["w"])
                leader = {"x": min(x, ax) - 1, "y": box["y"] + box["h"], "w": abs(ax - x) + 2, "h": ay - box["y"] - box["h"]}
            for k in keep_out:
                if rects_overlap(box, k) or (leader and rects_overlap(leader, k)):
                    hud_hits += 1
        cards_per_frame.append(cards)
        if sight_in_view:
            frames_with_sight += 1
            frames_labelled += labelled
    s = sorted(cards_per_frame)
    report = {
        "frames": len(frames),
        "buildings": len(polygons),
        "drawn_labels": drawn,
        "drawn_in_sight": drawn_in_sight,
        "drawn_in_sight_fraction": round(drawn_in_sight / drawn, 4) if drawn else None,
        "marked_occluded": marked,
        "marked_occluded_blocked_fraction": round(marked_blocked / marked, 4) if marked else None,
        "frames_with_poi_in_sight_in_view": frames_with_sight,
        "of_them_labelled_fraction": round(frames_labelled / frames_with_sight, 4) if frames_with_sight else None,
        "cards_per_frame_median": s[len(s) // 2],
        "cards_per_frame_max": s[-1],
        "cards_outside_image": outside,
        "cards_or_leaders_over_hud": hud_hits,
    }
    print(json.dumps(report, indent=1))
    if "--check" in argv:
        failed = []
        if drawn and drawn_in_sight / drawn < 0.95:
            failed.append("drawn labels in line of sight < 95 %")
        if frames_with_sight and frames_labelled / frames_with_sight < 0.90:
            failed.append("frames with a POI in sight in view labelled < 90 %")
        if s[-1] > 12:
            failed.append("more than 12 cards on a frame")
        if outside:
            failed.append("cards outside the image")
        if hud_hits:
            failed.append("cards or leader lines over the HUD")
        if failed:
            print("FAILED: " + "; ".join(failed), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
