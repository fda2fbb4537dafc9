#!/usr/bin/env python3
"""heading_vs_course.py - how far a fused heading is from the GPS course on a real recording.

Runs `poiar pose` on a Sensor Logger recording (folder or zip), then, for every GPS fix while
moving (speed >= --min-speed, 2 m/s by default: slower, the course is noise), compares the
device's facing azimuth with the course over ground:

    facing azimuth = azimuth of f_h + sin²(p)·û_h (poiar's Pose.facingAzimuth),
    f_h the horizontal part of R(q)·(0, 0, -1), the back camera's axis, p its pitch, û_h the
    horizontal direction of R(q)·(0, 1, 0), the top edge (portrait), R(q) device -> ENU from
    the pose row nearest the fix (within 0.1 s; none across a gyro gap).

That is the camera's azimuth when the phone is upright and the top edge's when it lies flat,
blending smoothly between (the HUD uses the same definition). The course is Location.csv's
`bearing` (Android, iOS: degrees from true north) when the fix has one, else the azimuth from the
previous fix to the next. The poses are true north when the recording has GPS (poiar's default),
like the course.

Printed: the number of fixes compared, the median signed difference (facing - course: the
mount offset, e.g. a phone lying crosswise in a car), and the median and 90th percentile of
|difference - median offset| (how well the heading follows the course once the mount is known).
With --segments T1,T2,... the same per time segment (seconds of the log).

  tools/heading_vs_course.py RECORDING [--causal] [--poiar BIN] [--min-speed 2] [--segments 182,268]
  tools/heading_vs_course.py RECORDING --both      # offline and --causal, one after the other

Needs only Python 3 (no packages). `poiar convert` gives the log's time origin (start_utc).
"""
import argparse
import csv
import io
import math
import os
import subprocess
import sys
import tempfile
import zipfile
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_POIAR = os.path.join(HERE, '..', '.build', 'release', 'poiar')


def open_member(recording, name):
    """Text stream of a file of the recording (folder or zip), or None."""
    if os.path.isdir(recording):
        path = os.path.join(recording, name)
        return open(path, newline='', encoding='utf-8') if os.path.exists(path) else None
    with zipfile.ZipFile(recording) as z:
        for n in z.namelist():
            if n == name or n.endswith('/' + name):
                return io.StringIO(z.read(n).decode('utf-8'))
    return None


def start_utc(poiar, recording, tmp):
    """The log's time 0 in seconds since the epoch, from `poiar convert`'s start_utc line."""
    out = os.path.join(tmp, 'log.csv')
    subprocess.run([poiar, 'convert', recording, '--out', out], check=True, stderr=subprocess.DEVNULL)
    with open(out, encoding='utf-8') as f:
        for line in f:
            if not line.startswith('#'):
                break
            if line.startswith('# start_utc:'):
                text = line.split(':', 1)[1].strip().replace('Z', '+00:00')
                return datetime.fromisoformat(text).timestamp()
    raise SystemExit('%s: the converted log has no start_utc line' % recording)


def read_fixes(recording, origin):
    """(time in log seconds, lat, lon, speed or None, bearing or None) per Location.csv row."""
    f = open_member(recording, 'Location.csv')
    if f is None:
        raise SystemExit('%s: no Location.csv' % recording)
    fixes = []
    for row in csv.DictReader(f):
        try:
            t = int(row['time']) / 1e9 - origin
            lat, lon = float(row['latitude']), float(row['longitude'])
        except (KeyError, ValueError):
            continue
        def num(key):
            try:
                v = float(row.get(key, ''))
                return v if math.isfinite(v) else None
            except ValueError:
                return None
        speed, bearing = num('speed'), num('bearing')
        # Android reports bearing 0 with a bearing accuracy of 0 (or none) when it has none.
        if bearing is not None and 'bearingAccuracy' in row and num('bearingAccuracy') in (None, 0.0) and bearing == 0:
            bearing = None
        fixes.append((t, lat, lon, speed, bearing))
    return fixes


def azimuth(lat1, lon1, lat2, lon2):
    """Initial great-circle azimuth, degrees from true north (short distances: exact enough)."""
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360


def distance(lat1, lon1, lat2, lon2):
    r = 6371008.8
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def facing_azimuth(w, x, y, z):
    """poiar's Pose.facingAzimuth for portrait holding, degrees; None when undefined."""
    # Columns of the rotation matrix: f = -(column 2), u = column 1.
    fx, fy, fz = -(2 * (x * z + w * y)), -(2 * (y * z - w * x)), -(1 - 2 * (x * x + y * y))
    ux, uy = 2 * (x * y - w * z), 1 - 2 * (x * x + z * z)
    east, north = fx, fy
    uh = math.hypot(ux, uy)
    if uh > 1e-12:
        east += fz * fz * ux / uh
        north += fz * fz * uy / uh
    if east * east + north * north < 1e-24:
        return None
    return math.degrees(math.atan2(east, north)) % 360


def wrap(d):
    return (d + 180) % 360 - 180


def percentile(values, p):
    s = sorted(values)
    if not s:
        return float('nan')
    k = (len(s) - 1) * p / 100
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def run(args, causal, tmp, origin, fixes):
    out = os.path.join(tmp, 'poses-%s.csv' % ('causal' if causal else 'offline'))
    cmd = [args.poiar, 'pose', args.recording, '--out', out] + (['--causal'] if causal else []) + args.pose_arg
    r = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit(r.stderr)
    times, quats = [], []
    with open(out, encoding='utf-8') as f:
        next(f)
        for line in f:
            p = line.split(',')
            times.append(float(p[0]))
            quats.append(tuple(float(v) for v in p[1:5]))
    rows = []  # (time, difference)
    j = 0
    for i, (t, lat, lon, speed, bearing) in enumerate(fixes):
        if speed is None:  # from the neighbouring fixes
            if 0 < i < len(fixes) - 1:
                a, b = fixes[i - 1], fixes[i + 1]
                speed = distance(a[1], a[2], b[1], b[2]) / max(b[0] - a[0], 1e-9)
            else:
                continue
        if speed < args.min_speed:
            continue
        if bearing is None:
            if not 0 < i < len(fixes) - 1:
                continue
            a, b = fixes[i - 1], fixes[i + 1]
            bearing = azimuth(a[1], a[2], b[1], b[2])
        while j + 1 < len(times) and abs(times[j + 1] - t) <= abs(times[j] - t):
            j += 1
        if not times or abs(times[j] - t) > 0.1:
            continue
        face = facing_azimuth(*quats[j])
        if face is None:
            continue
        rows.append((t, wrap(face - bearing)))
    label = 'causal' if causal else 'offline'
    print('%s:' % label)
    edges = [float('-inf')] + [float(x) for x in args.segments.split(',') if x] + [float('inf')] if args.segments else [float('-inf'), float('inf')]
    for lo, hi in zip(edges, edges[1:]):
        seg = [d for t, d in rows if lo <= t < hi]
        name = 'all' if len(edges) == 2 else 't in [%s, %s)' % ('start' if lo == float('-inf') else '%g s' % lo, 'end' if hi == float('inf') else '%g s' % hi)
        if not seg:
            print('  %s: no fixes while moving' % name)
            continue
        # Median of angles: around the circular mean, so a mount offset near ±180° is not split.
        c = math.degrees(math.atan2(sum(math.sin(math.radians(d)) for d in seg), sum(math.cos(math.radians(d)) for d in seg)))
        offset = wrap(c + percentile([wrap(d - c) for d in seg], 50))
        dev = [abs(wrap(d - offset)) for d in seg]
        print('  %s: %d fixes at >= %g m/s; mount offset (median facing - course) %+.1f deg; |difference - offset| median %.1f deg, 90th percentile %.1f deg'
              % (name, len(seg), args.min_speed, offset, percentile(dev, 50), percentile(dev, 90)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('recording', help='Sensor Logger recording: folder or .zip')
    ap.add_argument('--poiar', default=DEFAULT_POIAR, help='the poiar executable (default: .build/release/poiar)')
    ap.add_argument('--causal', action='store_true', help='fuse with --causal')
    ap.add_argument('--both', action='store_true', help='offline, then --causal')
    ap.add_argument('--min-speed', type=float, default=2.0, help='m/s: slower fixes are left out (default 2)')
    ap.add_argument('--segments', default='', help='comma-separated times (s) to split the report at')
    ap.add_argument('--pose-arg', action='append', default=[], help='one more argument for poiar pose (repeat)')
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        origin = start_utc(args.poiar, args.recording, tmp)
        fixes = read_fixes(args.recording, origin)
        for causal in ([False, True] if args.both else [args.causal]):
            run(args, causal, tmp, origin, fixes)


if __name__ == '__main__':
    main()
