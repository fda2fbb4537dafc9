#!/usr/bin/env python3
"""Generates a synthetic POI CSV for benchmarks/pois.sh (poiar's CSV format:
id,name,category,lat,lon,alt,address,phone,website).

N POIs (default 1,000,000) around Helsinki: CITY_SHARE of them in a city of radius CITY_KM km
whose density falls off gently from the centre (r = CITY_KM * u**0.55; u**0.5 would be uniform),
the rest spread uniformly over a REGION_KM x REGION_KM square around it (a country's worth). In
the city's core a 1500 m circle holds about 1,500 POIs, like central Helsinki's OSM data. Categories follow rough
OpenStreetMap shares (shops most common, universities rare); 5 % of the POIs have two
categories ("cafe;store", "restaurant;bar", …). Deterministic (fixed seed).

Usage: python3 benchmarks/gen_pois.py OUT.csv [N]
"""
import math
import random
import sys

CENTER = (60.1699, 24.9384)
CITY_SHARE, CITY_KM, REGION_KM = 0.35, 25.0, 600.0
CATEGORIES = [  # (category, weight %)
    ("store", 24), ("restaurant", 9), ("parking", 8), ("cafe", 5), ("fast_food", 5), ("toilets", 3),
    ("doctors", 3), ("bar", 3), ("pub", 3), ("park", 4), ("school", 2), ("kindergarten", 2),
    ("bank", 2), ("atm", 2), ("pharmacy", 2), ("hotel", 2), ("place_of_worship", 2),
    ("bicycle_rental", 2), ("fuel", 1.5), ("post_office", 1), ("museum", 1), ("university", 0.5),
    ("library", 1), ("cinema", 0.5), ("theatre", 0.5), ("sports", 2), ("playground", 2),
    ("attraction", 1), ("ice_cream", 1), ("charging_station", 1),
]
PAIRS = ["cafe;store", "restaurant;bar", "bank;atm", "fuel;store", "museum;attraction", "store;supermarket"]
STREETS = ["Mannerheimintie", "Aleksanterinkatu", "Esplanadi", "Bulevardi", "Fredrikinkatu", "Hämeentie",
           "Mechelininkatu", "Runeberginkatu", "Itämerenkatu", "Sturenkatu"]


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    rng = random.Random(20250614)
    names, weights = zip(*CATEGORIES)
    cum, total = [], 0.0
    for w in weights:
        total += w
        cum.append(total)
    lat0, lon0 = CENTER
    m_per_deg_lat = 111_320.0
    m_per_deg_lon = 111_320.0 * math.cos(math.radians(lat0))
    with open(out, "w", encoding="utf-8", newline="") as f:
        f.write("id,name,category,lat,lon,alt,address,phone,website\n")
        for i in range(n):
            if rng.random() < CITY_SHARE:
                r = CITY_KM * 1000 * rng.random() ** 0.55
                a = rng.random() * 2 * math.pi
                dy, dx = r * math.cos(a), r * math.sin(a)
            else:
                dy = (rng.random() - 0.5) * REGION_KM * 1000
                dx = (rng.random() - 0.5) * REGION_KM * 1000
            lat = lat0 + dy / m_per_deg_lat
            lon = lon0 + dx / m_per_deg_lon
            if rng.random() < 0.05:
                category = PAIRS[i % len(PAIRS)]
            else:
                x = rng.random() * total
                category = names[next(k for k, c in enumerate(cum) if c >= x)]
            primary = category.split(";")[0]
            alt = "%.1f" % (rng.random() * 40) if i % 7 == 0 else ""
            address = "%s %d, 00100 Helsinki" % (STREETS[i % len(STREETS)], 1 + i % 97)
            phone = "+358 9 %07d" % (i % 10_000_000) if i % 3 == 0 else ""
            website = "https://poi%d.example/" % i if i % 4 == 0 else ""
            f.write("p%d,%s %d,%s,%.7f,%.7f,%s,\"%s\",%s,%s\n"
                    % (i, primary.replace("_", " ").title(), i, category, lat, lon, alt, address, phone, website))


if __name__ == "__main__":
    main()
