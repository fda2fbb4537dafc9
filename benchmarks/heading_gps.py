#!/usr/bin/env python3
"""The facing azimuth of a pose CSV against the GPS course (issue 26, item 4).

Course samples: for each fix, the first fix at least `--span` s later (4 s); the pair counts
when the two are at least `--min-distance` m apart (5 m) and both state an accuracy under
`--max-accuracy` m (20 m). The course is the pair's initial bearing, at the pair's middle time.
The facing azimuth there is the one `poiar` draws the map cone with (`Pose.facingAzimuth`,
portrait: tools/heading_vs_course.py's, which compares with each fix's own bearing instead),
of the pose row nearest that time: across a gyro gap with no rows, the held pose, as frames
see it. Prints the median and p90 of |facing - course| and the same after `--after` s.

Usage: heading_gps.py POSE.csv LOG [--after T]
LOG: the poiar-log/1 log the poses were fused from (`poiar convert` a phone recording first:
its times are the log's, not Sensor Logger's seconds_elapsed); its gps rows are the fixes.
A fix without an accuracy never counts.
Only the standard library: no venv needed.
"""
import argparse
import bisect
import csv
import os
import sys

# The facing azimuth, the geodesy and the percentile of tools/heading_vs_course.py (one copy).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from heading_vs_course import azimuth, distance, facing_azimuth, percentile, wrap  # noqa: E402


def fail(msg):
    print(f"heading_gps.py: {msg}", file=sys.stderr)
    sys.exit(1)


def read_fixes(path):
    """(time, lat, lon, accuracy) of a poiar-log/1 log's gps rows, in time order."""
    with open(path, newline="") as f:
        reader = csv.DictReader(line for line in f if not line.startswith("#"))
        if reader.fieldnames is None or "sensor" not in reader.fieldnames:
            fail(f"{path}: line 1: not a poiar-log/1 log (no sensor column): give `poiar convert`'s output")
        out = []
        for n, r in enumerate(reader, start=2):
            if r["sensor"] != "gps":
                continue
            try:
                out.append((float(r["time"]), float(r["x"]), float(r["y"]), float(r["accuracy"] or "inf")))
            except ValueError:
                fail(f"{path}: gps row {n}: a field is not a number")
    return sorted(out)


def read_poses(path):
    times, facings = [], []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        for k in ("time", "qw", "qx", "qy", "qz"):
            if k not in (reader.fieldnames or []):
                fail(f"{path}: line 1: no column {k!r}")
        for n, r in enumerate(reader, start=2):
            try:
                t, w, x, y, z = (float(r[k]) for k in ("time", "qw", "qx", "qy", "qz"))
            except ValueError:
                fail(f"{path}: line {n}: a field is not a number")
            times.append(t)
            facings.append((w, x, y, z))
    if not times:
        fail(f"{path}: no pose rows")
    return times, facings


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("poses")
    ap.add_argument("log")
    ap.add_argument("--span", type=float, default=4.0)
    ap.add_argument("--min-distance", type=float, default=5.0)
    ap.add_argument("--max-accuracy", type=float, default=20.0)
    ap.add_argument("--after", type=float, help="also the figures after this time (s)")
    a = ap.parse_args()
    fixes = read_fixes(a.log)
    times, quats = read_poses(a.poses)
    ftimes = [f[0] for f in fixes]
    errors = []  # (time, |error|)
    for i, fi in enumerate(fixes):
        j = bisect.bisect_left(ftimes, fi[0] + a.span, lo=i + 1)
        if j >= len(fixes):
            break
        fj = fixes[j]
        if fi[3] >= a.max_accuracy or fj[3] >= a.max_accuracy or distance(fi[1], fi[2], fj[1], fj[2]) < a.min_distance:
            continue
        t = (fi[0] + fj[0]) / 2
        k = bisect.bisect_left(times, t)
        k = min(range(max(0, k - 1), min(len(times), k + 1)), key=lambda n: abs(times[n] - t))
        facing = facing_azimuth(*quats[k])
        if facing is None:
            continue
        d = abs(wrap(facing - azimuth(fi[1], fi[2], fj[1], fj[2])))
        errors.append((t, d))
    if not errors:
        fail("no course samples: the fixes never move far enough with good accuracy")
    def say(label, es):
        if es:
            print(f"{label}: {len(es)} course samples, median {percentile(es, 50):.1f} deg, p90 {percentile(es, 90):.1f} deg")
    say("whole recording", [e for _, e in errors])
    if a.after is not None:
        say(f"after {a.after:g} s", [e for t, e in errors if t >= a.after])


if __name__ == "__main__":
    main()
