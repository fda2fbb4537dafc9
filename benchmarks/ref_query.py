#!/usr/bin/env python3
"""The straightforward reference for benchmarks/pois.sh: the same radius queries as
`poiar pois bench`, done with Python's sqlite3 over an R*Tree table.

    python3 benchmarks/ref_query.py CSV DB --near LAT,LON --spread M --radius M \
        --filter a,b,c --queries N --seed S

Builds DB from CSV (poiar's CSV format; one transaction, executemany) unless it exists, then
runs N queries whose centres and categories come from the same SplitMix64 stream as poiar's
bench (so both answer the same questions). Each query: the R*Tree box around the circle
(the same bound as poiar's), joined to the POI rows, filtered by category, then Vincenty's
geodesic distance in Python, kept within the radius, sorted nearest first. Prints one line:
`import_s median_us p99_us mean_hits`.
"""
import argparse
import math
import os
import sqlite3
import time

A = 6378137.0
F = 1 / 298.257223563
B = A * (1 - F)
E2 = F * (2 - F)
M_MIN = A * (1 - E2)
MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):
        return (self.next() >> 11) / float(1 << 53)


def vincenty(lat1, lon1, lat2, lon2):
    """Distance (m) and initial azimuth (deg) on WGS84 (Vincenty 1975)."""
    L = math.radians(((lon2 - lon1 + 540) % 360) - 180)
    U1 = math.atan((1 - F) * math.tan(math.radians(lat1)))
    U2 = math.atan((1 - F) * math.tan(math.radians(lat2)))
    sinU1, cosU1, sinU2, cosU2 = math.sin(U1), math.cos(U1), math.sin(U2), math.cos(U2)
    lam = L
    for _ in range(200):
        sinL, cosL = math.sin(lam), math.cos(lam)
        sinS = math.hypot(cosU2 * sinL, cosU1 * sinU2 - sinU1 * cosU2 * cosL)
        if sinS == 0:
            return 0.0, 0.0
        cosS = sinU1 * sinU2 + cosU1 * cosU2 * cosL
        sigma = math.atan2(sinS, cosS)
        sinA = cosU1 * cosU2 * sinL / sinS
        cos2A = 1 - sinA * sinA
        cos2SM = cosS - 2 * sinU1 * sinU2 / cos2A if cos2A else 0.0
        C = F / 16 * cos2A * (4 + F * (4 - 3 * cos2A))
        prev = lam
        lam = L + (1 - C) * F * sinA * (sigma + C * sinS * (cos2SM + C * cosS * (-1 + 2 * cos2SM * cos2SM)))
        if abs(lam - prev) < 1e-12:
            break
    u2 = cos2A * (A * A - B * B) / (B * B)
    AA = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
    BB = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
    dS = BB * sinS * (cos2SM + BB / 4 * (cosS * (-1 + 2 * cos2SM * cos2SM)
                                         - BB / 6 * cos2SM * (-3 + 4 * sinS * sinS) * (-3 + 4 * cos2SM * cos2SM)))
    s = B * AA * (sigma - dS)
    az = math.degrees(math.atan2(cosU2 * sinL, cosU1 * sinU2 - sinU1 * cosU2 * cosL)) % 360
    return s, az


def build(csv_path, db_path):
    import csv
    t0 = time.perf_counter()
    db = sqlite3.connect(db_path)
    db.executescript("""
        PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
        CREATE TABLE poi (rid INTEGER PRIMARY KEY, id TEXT UNIQUE, name TEXT, category TEXT,
                          lat REAL, lon REAL, alt REAL, address TEXT, phone TEXT, website TEXT);
        CREATE TABLE poi_category (rid INTEGER, category TEXT, PRIMARY KEY (rid, category)) WITHOUT ROWID;
        CREATE VIRTUAL TABLE poi_rtree USING rtree(rid, min_lat, max_lat, min_lon, max_lon);
    """)
    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with db:
        db.executemany("INSERT INTO poi VALUES (?,?,?,?,?,?,?,?,?,?)",
                       ((i + 1, "csv:" + r["id"], r["name"], r["category"].split(";")[0], float(r["lat"]), float(r["lon"]),
                         float(r["alt"]) if r["alt"] else None, r["address"] or None, r["phone"] or None,
                         r["website"] or None) for i, r in enumerate(rows)))
        db.executemany("INSERT INTO poi_category VALUES (?,?)",
                       ((i + 1, c) for i, r in enumerate(rows) for c in dict.fromkeys(r["category"].split(";"))))
        db.executemany("INSERT INTO poi_rtree VALUES (?,?,?,?,?)",
                       ((i + 1, float(r["lat"]), float(r["lat"]), float(r["lon"]), float(r["lon"])) for i, r in enumerate(rows)))
    db.close()
    return time.perf_counter() - t0


def boxes(lat, lon, radius):
    delta = radius / M_MIN
    dlat = math.degrees(delta) + 1e-9
    lo, hi = lat - dlat, lat + dlat
    if delta >= math.pi / 2 or hi >= 90 or lo <= -90:
        return [(max(lo, -90), min(hi, 90), -180, 180)]
    ratio = math.sin(delta) / math.cos(math.radians(lat))
    if ratio >= 1:
        return [(lo, hi, -180, 180)]
    dlon = math.degrees(math.asin(ratio)) + 1e-9
    w, e = lon - dlon, lon + dlon
    if w < -180:
        return [(lo, hi, -180, e), (lo, hi, w + 360, 180)]
    if e > 180:
        return [(lo, hi, w, 180), (lo, hi, -180, e - 360)]
    return [(lo, hi, w, e)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    p.add_argument("db")
    p.add_argument("--near", required=True)
    p.add_argument("--spread", type=float, default=3000)
    p.add_argument("--radius", type=float, default=1500)
    p.add_argument("--filter", required=True)
    p.add_argument("--queries", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    import_s = build(a.csv, a.db) if not os.path.exists(a.db) else float("nan")
    lat0, lon0 = map(float, a.near.split(","))
    cats = a.filter.split(",")
    rng = SplitMix64(a.seed)
    queries = []
    for _ in range(a.queries):
        r = a.spread * math.sqrt(rng.unit())
        ang = 2 * math.pi * rng.unit()
        lat = lat0 + r * math.cos(ang) / 111320
        lon = lon0 + r * math.sin(ang) / (111320 * max(0.01, math.cos(math.radians(lat0))))
        queries.append((lat, lon, cats[rng.next() % len(cats)]))
    db = sqlite3.connect("file:%s?mode=ro" % a.db, uri=True)
    sql = """SELECT p.id, p.name, p.category, p.lat, p.lon, p.alt, p.address, p.phone, p.website
             FROM poi_rtree r JOIN poi p ON p.rid = r.rid
             WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lon >= ? AND r.min_lon <= ?
               AND EXISTS (SELECT 1 FROM poi_category c WHERE c.rid = p.rid AND c.category = ?)"""
    times, hits = [], []
    for i, (lat, lon, cat) in enumerate(queries[:200] + queries):  # 200 untimed warm-up queries first
        t0 = time.perf_counter()
        found = []
        for (lo, hi, w, e) in boxes(lat, lon, a.radius):
            for row in db.execute(sql, (lo, hi, w, e, cat)):
                d, az = vincenty(lat, lon, row[3], row[4])
                if d <= a.radius:
                    found.append((d, row[0], az, row))
        found.sort()
        t1 = time.perf_counter()
        if i >= 200:
            times.append((t1 - t0) * 1e6)
            hits.append(len(found))
    times.sort()
    median = times[max(0, math.ceil(0.5 * len(times)) - 1)]
    p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
    print("%.2f %.1f %.1f %.1f" % (import_s, median, p99, sum(hits) / len(hits)))


if __name__ == "__main__":
    main()
