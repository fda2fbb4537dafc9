#!/usr/bin/env python3
"""Builds a `poiar report` page without Swift, for checking the page in a browser.

The page's template lives only in Sources/Replay/Report/ReportPage*.swift (raw string
literals); this script reads those literals and the assembly line of `ReportPage.html`,
builds the report's data from a replay's frames.jsonl the way `poiar report` does, and
writes the page. Standard library only.

    tools/report_dev_data.py OUT_DIR [--log SampleLogs/walk.csv]
        [--truth SampleLogs/walk.truth.csv] [--fake-map 120-160] [--out OUT_DIR/report.html]

--fake-map A-B marks frames A..B as map-view frames (cards removed), to see the bands;
--truth computes the errors against a truth CSV (time,qw,qx,qy,qz,heading_deg,...): heading
signed, inclination the angle between the two poses' up directions. --json writes the data
alone.
"""

import argparse
import bisect
import json
import math
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT_DIR = os.path.join(REPO, "Sources", "Replay", "Report")
PALETTE = os.path.join(REPO, "Sources", "Rendering", "CategoryPalette.swift")

# `static let name = #"""` … `"""#`: a Swift multi-line raw string.
LITERAL = re.compile(r'static let (\w+) = #"""\n(.*?)\n([ \t]*)"""#', re.S)
ASSEMBLY = re.compile(r"return \[([\w, ]+)\]\.joined\(\)")


def swift_literals():
    """Every raw string literal of the ReportPage files, by name, as Swift reads them."""
    literals = {}
    for name in sorted(os.listdir(REPORT_DIR)):
        if not name.endswith(".swift"):
            continue
        text = open(os.path.join(REPORT_DIR, name), encoding="utf-8").read()
        for m in LITERAL.finditer(text):
            indent, lines = m.group(3), m.group(2).split("\n")
            out = []
            for line in lines:
                if line.strip() and not line.startswith(indent):
                    sys.exit(f"{name}: {m.group(1)}: a line is indented less than the closing delimiter")
                out.append(line[len(indent):] if line.strip() else "")
            body = "\n".join(out)
            # Inside #"""…"""# only \#( … ) and \#n etc. are escapes: the template must not use them.
            if "\\#" in body:
                sys.exit(f"{name}: {m.group(1)}: contains \\# (a Swift escape in a raw string)")
            literals[m.group(1)] = body
    return literals


def assembly_order():
    text = open(os.path.join(REPORT_DIR, "ReportPage.swift"), encoding="utf-8").read()
    m = ASSEMBLY.search(text)
    if not m:
        sys.exit("ReportPage.swift: no `return [..].joined()` assembly line")
    return [s.strip() for s in m.group(1).split(",")]


def palette_json():
    """CategoryPalette as ReportPage.paletteJSON writes it."""
    text = open(PALETTE, encoding="utf-8").read()
    rgb = r"RGBA8\(r: 0x([0-9A-Fa-f]{2}), g: 0x([0-9A-Fa-f]{2}), b: 0x([0-9A-Fa-f]{2})\)"
    colours = {m.group(1): "#" + "".join(m.group(i).lower() for i in (2, 3, 4))
               for m in re.finditer(r'"(\w+)": ' + rgb, text)}
    other = re.search(r"static let other = " + rgb, text)
    body = ", ".join(f'"{k}": "{colours[k]}"' for k in sorted(colours))
    return '{"colours": {' + body + '}, "other": "#' + "".join(other.group(i).lower() for i in (1, 2, 3)) + '"}'


def escape_html(text):
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def script_safe(json_text):
    return json_text.replace("<!--", "<\\u0021--").replace("</", "<\\/")


def page(title, data_json):
    literals = swift_literals()
    values = {"safeTitle": escape_html(title), "safeData": script_safe(data_json),
              "safePalette": script_safe(palette_json())}
    parts = []
    for name in assembly_order():
        if name in values:
            parts.append(values[name])
        elif name in literals:
            parts.append(literals[name])
        else:
            sys.exit(f"assembly names {name}, which is neither a literal nor a value")
    return "".join(parts)


# ---------------------------------------------------------------- data

def wrap180(a):
    a = math.fmod(a, 360.0)
    if a <= -180:
        a += 360
    elif a > 180:
        a -= 360
    return a


def up_in_device(q):
    """World up (ENU z) in the device frame, for q = device -> ENU (w, x, y, z): R(q)^T e_z."""
    w, x, y, z = q
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    # Third row of R(q).
    return (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))


def read_truth(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = None
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.strip().split(",")
            if header is None:
                header = cells
                continue
            rows.append(dict(zip(header, cells)))
    rows.sort(key=lambda r: float(r["time"]))
    return rows


def truth_block(path, records):
    rows = read_truth(path)
    times = [float(r["time"]) for r in rows]
    errors = []
    for rec in records:
        t = rec["time"]
        i = bisect.bisect_left(times, t)
        if i == len(times) or (i > 0 and t - times[i - 1] <= times[i] - t):
            i -= 1
        row = rows[i]
        pose = rec["pose"]
        h = pose.get("heading")
        he = None if h is None else round(wrap180(h - float(row["heading_deg"])), 4)
        a = up_in_device(pose["q"])
        b = up_in_device([float(row[k]) for k in ("qw", "qx", "qy", "qz")])
        dot = max(-1.0, min(1.0, sum(x * y for x, y in zip(a, b))))
        errors.append({"time": t, "heading": he, "inclination": round(math.degrees(math.acos(dot)), 4)})
    def rmse(key):
        v = [e[key] for e in errors if e[key] is not None]
        return round(math.sqrt(sum(x * x for x in v) / len(v)), 3) if v else None
    return {"file": os.path.basename(path), "heading_rmse": rmse("heading"),
            "inclination_rmse": rmse("inclination"), "errors": errors}


def read_track(log):
    track = []
    with open(log, encoding="utf-8") as f:
        for line in f:
            cells = line.strip().split(",")
            if len(cells) >= 4 and cells[1] == "gps":
                track.append([float(cells[2]), float(cells[3])])
    return track


def build(out_dir, log=None, truth=None, fake_map=None, title=None):
    records = [json.loads(line) for line in open(os.path.join(out_dir, "frames.jsonl"), encoding="utf-8") if line.strip()]
    if fake_map:
        lo, hi = fake_map
        for rec in records:
            if lo <= rec["frame"] <= hi:
                rec["view"] = "map"
                rec.pop("clusters", None)
                for a in rec["annotations"]:
                    a["visible"] = False
    frames, pois = [], {}
    for rec in records:
        cam, loc, pose = rec["camera"], rec["location"], rec["pose"]
        anns = rec["annotations"]
        clusters = rec.get("clusters", [])

        def on_image(a):
            x, y = a.get("anchor_x"), a.get("anchor_y")
            return x is not None and y is not None and 0 <= x <= cam["width"] and 0 <= y <= cam["height"]

        frames.append({
            "frame": rec["frame"], "time": rec["time"], "image": rec["image"],
            "lat": loc.get("lat"), "lon": loc.get("lon"), "accuracy": loc.get("accuracy"),
            "heading": pose.get("heading"), "pitch": pose.get("pitch"), "roll": pose.get("roll"),
            "facing": pose.get("facing"),
            "view": "map" if rec.get("view") == "map" else "camera",
            "drawn": sum(1 for a in anns if a["visible"]) + len(clusters),
            "occluded": sum(1 for a in anns if a.get("occluded") is True and on_image(a)),
            "dots": sum(1 for a in anns if a.get("marker") == "dot"),
            "clusters": len(clusters),
            "labels": [a["name"] for a in anns if a["visible"]],
        })
        for a in anns:
            p = pois.setdefault(a["id"], {"name": a["name"], "category": a["category"],
                                          "lat": a["lat"], "lon": a["lon"], "shown": False})
            p["shown"] = p["shown"] or a["visible"]
    first = records[0]["camera"] if records else {"width": 0, "height": 0}
    return {
        "title": title or os.path.basename(os.path.normpath(out_dir)),
        "log": log or "", "generator": "poiar (tools/report_dev_data.py)",
        "image": {"width": first["width"], "height": first["height"]},
        "frames": frames,
        "track": read_track(log) if log else [],
        "pois": sorted(pois.values(), key=lambda p: (p["name"], p["lat"], p["lon"])),
        "truth": truth_block(truth, records) if truth else None,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("--log")
    ap.add_argument("--truth")
    ap.add_argument("--fake-map", help="A-B: frames A..B as map-view frames")
    ap.add_argument("--title")
    ap.add_argument("--out", help="default OUT_DIR/report.html")
    ap.add_argument("--json", help="also write the data JSON here")
    args = ap.parse_args()
    fake = tuple(int(x) for x in args.fake_map.split("-")) if args.fake_map else None
    data = build(args.out_dir, args.log, args.truth, fake, args.title)
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    if args.json:
        open(args.json, "w", encoding="utf-8").write(text)
    out = args.out or os.path.join(args.out_dir, "report.html")
    open(out, "w", encoding="utf-8").write(page(data["title"], text))
    print(f"{out}: {len(data['frames'])} frames, {len(data['pois'])} POIs, {len(data['track'])} fixes")


if __name__ == "__main__":
    main()
