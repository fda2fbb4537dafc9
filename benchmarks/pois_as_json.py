#!/usr/bin/env python3
"""Writes the POIs of a CSV made by gen_pois.py as GeoJSON and as an Overpass JSON answer, the
same POIs with the same fields, for benchmarks/pois.sh's JSON-vs-CSV comparison.

GeoJSON: a FeatureCollection of Points, id `p<N>`, properties category, name, alt, address,
phone, website. Overpass JSON: `{"elements": [...]}` of nodes whose tags say the same in OSM's
words (the category as its OSM tag, name, addr:full, phone, website, ele).

Usage: python3 benchmarks/pois_as_json.py POIS.csv OUT.geojson OUT.overpass.json
"""
import csv
import json
import sys

# The OSM tag of each category gen_pois.py uses (the first rule of docs/categories.md).
OSM_TAG = {
    "store": ("shop", "yes"), "supermarket": ("shop", "supermarket"), "park": ("leisure", "park"),
    "playground": ("leisure", "playground"), "sports": ("leisure", "sports_centre"), "hotel": ("tourism", "hotel"),
    "museum": ("tourism", "museum"), "attraction": ("tourism", "attraction"), "doctors": ("amenity", "doctors"),
    "university": ("amenity", "university"),
}


def main():
    source, geojson_path, overpass_path = sys.argv[1:4]
    with open(source, encoding="utf-8", newline="") as f, \
            open(geojson_path, "w", encoding="utf-8") as g, open(overpass_path, "w", encoding="utf-8") as o:
        g.write('{"type": "FeatureCollection", "features": [\n')
        o.write('{"version": 0.6, "generator": "poiar benchmark", "elements": [\n')
        for n, row in enumerate(csv.DictReader(f)):
            sep = ",\n" if n else ""
            properties = {k: row[k] for k in ("category", "name", "address", "phone", "website") if row[k]}
            position = [float(row["lon"]), float(row["lat"])]
            if row["alt"]:
                position.append(float(row["alt"]))
            g.write(sep + json.dumps({"type": "Feature", "id": row["id"], "properties": properties,
                                      "geometry": {"type": "Point", "coordinates": position}}, ensure_ascii=False))
            tags = {}
            for c in row["category"].split(";"):
                key, value = OSM_TAG.get(c, ("amenity", c))
                tags.setdefault(key, value)
            tags["name"] = row["name"]
            for key, column in (("addr:full", "address"), ("phone", "phone"), ("website", "website"), ("ele", "alt")):
                if row[column]:
                    tags[key] = row[column]
            o.write(sep + json.dumps({"type": "node", "id": n + 1, "lat": float(row["lat"]), "lon": float(row["lon"]),
                                      "tags": tags}, ensure_ascii=False))
        g.write("\n]}\n")
        o.write("\n]}\n")


if __name__ == "__main__":
    main()
