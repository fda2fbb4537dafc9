#!/usr/bin/env python3
"""sample_walk_views.py - when each of the sample walk's cafes is in the camera's view.

Reads the true track that `poiar simulate --track` writes (time,lat,lon,alt,heading_deg,
pitch_deg,roll_deg at every frame time), the camera JSON and the OSM POIs, and prints, per
cafe, the frame-time ranges in which its anchor falls inside the image (the contract's
pinhole model, POI at the device's altitude, no distortion), with the distance and the
anchor's image x (u: 0 left edge, width/2 centre). SampleLogs/README.md's "When the cafes
are in view" table is made from this output.

    python3 tools/sample_walk_views.py [--track SampleLogs/walk.track.csv]
        [--camera SampleLogs/walk.camera.json] [--osm SampleLogs/helsinki-esplanadi.osm] [ID ...]

Standard library only. Positions go through ECEF to the device's local ENU frame (WGS84);
the attitude is q = qz(-heading) * qx(90 deg + pitch) * qz(-roll), as in the contract.
"""
import argparse
import json
import math
import os
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(os.path.dirname(HERE), 'SampleLogs')
CAFES = ['307465178', '606996912', '606996900', '1985598534', '2270234280']  # Engel, Karl Fazer, Strindberg, Esplanad, Aalto

A = 6378137.0
F = 1 / 298.257223563
E2 = F * (2 - F)


def ecef(lat, lon, h):
    p, l = math.radians(lat), math.radians(lon)
    n = A / math.sqrt(1 - E2 * math.sin(p) ** 2)
    return ((n + h) * math.cos(p) * math.cos(l), (n + h) * math.cos(p) * math.sin(l), (n * (1 - E2) + h) * math.sin(p))


def enu(origin, point):
    d = [a - b for a, b in zip(ecef(*point), ecef(*origin))]
    p, l = math.radians(origin[0]), math.radians(origin[1])
    return (-math.sin(l) * d[0] + math.cos(l) * d[1],
            -math.sin(p) * math.cos(l) * d[0] - math.sin(p) * math.sin(l) * d[1] + math.cos(p) * d[2],
            math.cos(p) * math.cos(l) * d[0] + math.cos(p) * math.sin(l) * d[1] + math.sin(p) * d[2])


def rotation(heading, pitch, roll):
    """R = Rz(-h) R0 Rx(p) Rz(-r): device vectors to ENU (rows)."""
    def mul(a, b):
        return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]

    def rz(a):
        return [[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]]

    def rx(a):
        return [[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]]
    r0 = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]
    return mul(mul(mul(rz(-math.radians(heading)), r0), rx(math.radians(pitch))), rz(-math.radians(roll)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--track', default=os.path.join(SAMPLE, 'walk.track.csv'))
    ap.add_argument('--camera', default=os.path.join(SAMPLE, 'walk.camera.json'))
    ap.add_argument('--osm', default=os.path.join(SAMPLE, 'helsinki-esplanadi.osm'))
    ap.add_argument('ids', nargs='*', default=CAFES, help='OSM node ids (default: the five cafes of the walk)')
    args = ap.parse_args()
    cam = json.load(open(args.camera))
    nodes = {}
    for el in ET.parse(args.osm).getroot().iter('node'):
        if el.get('id') in args.ids:
            name = next((t.get('v') for t in el.iter('tag') if t.get('k') == 'name'), el.get('id'))
            nodes[el.get('id')] = (name, float(el.get('lat')), float(el.get('lon')))
    rows = []
    with open(args.track) as f:
        header = f.readline().strip().split(',')
        assert header[:7] == ['time', 'lat', 'lon', 'alt', 'heading_deg', 'pitch_deg', 'roll_deg'], header
        for line in f:
            if line.strip():
                rows.append([float(x) for x in line.split(',')[:7]])
    print('cafes in view (frame times; u = image x of the anchor, 0..%d, left..right):' % cam['width'])
    for poi_id in args.ids:
        if poi_id not in nodes:
            print('  node/%s: not in %s' % (poi_id, args.osm))
            continue
        name, plat, plon = nodes[poi_id]
        seen = []
        for t, lat, lon, alt, h, p, r in rows:
            e = enu((lat, lon, alt), (plat, plon, alt))
            R = rotation(h, p, r)
            d = [R[0][j] * e[0] + R[1][j] * e[1] + R[2][j] * e[2] for j in range(3)]  # R^T e
            X, Y, Z = d[0], -d[1], -d[2]
            inside = False
            if Z > 0:
                u = cam['fx'] * X / Z + cam['cx']
                v = cam['fy'] * Y / Z + cam['cy']
                inside = 0 <= u <= cam['width'] and 0 <= v <= cam['height']
            seen.append((t, inside, math.hypot(e[0], e[1]), u if inside else None))
        ranges = []
        i = 0
        while i < len(seen):
            if seen[i][1]:
                j = i
                while j + 1 < len(seen) and seen[j + 1][1]:
                    j += 1
                part = seen[i:j + 1]
                ranges.append('%.1f-%.1f s (%.0f-%.0f m, u %.0f..%.0f)' % (
                    part[0][0], part[-1][0], min(x[2] for x in part), max(x[2] for x in part),
                    min(x[3] for x in part), max(x[3] for x in part)))
                i = j + 1
            else:
                i += 1
        n = sum(1 for x in seen if x[1])
        print('  %s (node/%s) %d frames: %s' % (name, poi_id, n, '; '.join(ranges) if ranges else 'never'))


if __name__ == '__main__':
    main()
