#!/usr/bin/env python3
"""Cuts the small excerpts of ../shared/data that the tests use into Tests/Fixtures/.

- osm/aguascalientes-excerpt.osm: the tagged nodes of aguascalientes.osm (OSM XML), header kept.
- osm/SanFrancisco-InnerSunset-excerpt.overpass.json: the tagged ways of the Overpass
  response with every node they reference, and the tagged nodes.
West-Oakland.osm, West-Oakland.osm.bz2 and the Lund still 01.jpg are copied whole; West-Oakland.osm.gz is made here. Data © OpenStreetMap
contributors (ODbL 1.0); the still © Mapillary (BSD-2-Clause, OpenSfM sample data).
"""
import json, pathlib, re
root = pathlib.Path(__file__).resolve().parent.parent
shared = root.parent / "shared/data"
out = root / "Tests/Fixtures/osm"

xml = (shared / "osm/aguascalientes.osm").read_text(encoding="utf-8")
head = xml[: xml.index("<node")]
nodes = re.findall(r"<node [^>]*/>|<node [^>]*[^/]>.*?</node>", xml, flags=re.S)
tagged = [n for n in nodes if "<tag " in n]
(out / "aguascalientes-excerpt.osm").write_text(
    head.replace("<osm ", "<!-- © OpenStreetMap contributors, ODbL 1.0: tagged nodes of aguascalientes.osm (tools/make_test_fixtures.py) -->\n<osm ", 1)
    + "\n".join(tagged) + "\n</osm>\n", encoding="utf-8")

data = json.loads((shared / "osm/SanFrancisco-InnerSunset.overpass.json").read_text(encoding="utf-8"))
ways = [e for e in data["elements"] if e["type"] == "way" and e.get("tags", {}).keys() & {"amenity", "shop", "tourism", "leisure"}]
needed = {n for w in ways for n in w["nodes"]}
nodes = [e for e in data["elements"] if e["type"] == "node" and (e["id"] in needed or e.get("tags"))]
data["elements"] = nodes + ways
data["remark"] = "© OpenStreetMap contributors, ODbL 1.0: excerpt of SanFrancisco-InnerSunset.overpass.json (tools/make_test_fixtures.py)"
(out / "SanFrancisco-InnerSunset-excerpt.overpass.json").write_text(json.dumps(data, ensure_ascii=False, indent=0), encoding="utf-8")
print(len(tagged), "aguascalientes nodes;", len(ways), "SF ways,", len(nodes), "SF nodes")

# West-Oakland.osm compressed both ways poiar reads: the bzip2 file of the source as it is,
# and a gzip made here (mtime 0, so the bytes do not change from run to run).
import gzip, shutil
shutil.copyfile(shared / "osm/West-Oakland.osm.bz2", out / "West-Oakland.osm.bz2")
(out / "West-Oakland.osm.gz").write_bytes(gzip.compress((out / "West-Oakland.osm").read_bytes(), 9, mtime=0))
