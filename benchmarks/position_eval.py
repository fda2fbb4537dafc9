#!/usr/bin/env python3
"""Scores a smoothed position track against a simulation's truth (docs/position.md).

  position_eval.py TRUTH.track.csv (frames.jsonl | track.csv) [--label NAME] [--brief]
  position_eval.py --real track.csv [--label NAME]

TRUTH is `poiar simulate --track`'s CSV (time,lat,lon,alt,...: the true position at frame times).
The estimate is a replay's frames.jsonl (location = smoothed, location.gps = raw, location.sigma_m)
or `poiar pose --track`'s CSV (one row per fix). The truth is interpolated to the estimate's
times. Prints the horizontal error's median and p95 of the raw fixes and of the smoothed
track, the share of times within sigma and 2 sigma, and the jerk (RMS third difference of the
position over time) of both. With --real (a real recording: no truth) it prints the jerk of
both and how far the smoothed track is from the raw fixes. --brief: one line (median and p95 of
the raw fixes and of the estimate, m; their ratios; the shares within sigma and 2 sigma).
Standard library only.
"""
import csv, json, math, sys


def read_truth(path):
    t, lat, lon = [], [], []
    with open(path) as f:
        for row in csv.DictReader(f):
            t.append(float(row["time"])); lat.append(float(row["lat"])); lon.append(float(row["lon"]))
    return t, lat, lon


def read_estimate(path):
    """Rows of (time, (lat, lon), sigma, (gps lat, gps lon))."""
    rows = []
    if path.endswith(".jsonl"):
        with open(path) as f:
            for line in f:
                fr = json.loads(line)
                loc = fr["location"]
                gps = loc.get("gps") or loc
                rows.append((fr["time"], (loc["lat"], loc["lon"]), loc.get("sigma_m"), (gps["lat"], gps["lon"])))
    else:
        with open(path) as f:
            for row in csv.DictReader(f):
                rows.append((float(row["time"]), (float(row["lat"]), float(row["lon"])),
                             float(row["sigma_m"]) if row["sigma_m"] else None,
                             (float(row["gps_lat"]), float(row["gps_lon"]))))
    return rows


def interp(ts, xs, t):
    if t <= ts[0]: return xs[0]
    if t >= ts[-1]: return xs[-1]
    lo, hi = 0, len(ts) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ts[mid] <= t: lo = mid
        else: hi = mid
    s = (t - ts[lo]) / (ts[hi] - ts[lo])
    return xs[lo] + (xs[hi] - xs[lo]) * s


def metres(a, b, lat0):
    k = 111_320.0
    return ((a[0] - b[0]) * k, (a[1] - b[1]) * k * math.cos(math.radians(lat0)))


def pct(xs, p):
    xs = sorted(xs)
    if not xs: return float("nan")
    i = (len(xs) - 1) * p / 100
    lo = int(math.floor(i)); hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


def jerk(times, points, lat0):
    """RMS of the third difference of the position over time (m/s^3), on the rows' own times."""
    out = []
    for i in range(len(points) - 3):
        dt = (times[i + 3] - times[i]) / 3
        if dt <= 0: continue
        d = [metres(points[i + k], points[0], lat0) for k in range(4)]
        j = [(d[3][c] - 3 * d[2][c] + 3 * d[1][c] - d[0][c]) / dt ** 3 for c in range(2)]
        out.append(j[0] ** 2 + j[1] ** 2)
    return math.sqrt(sum(out) / len(out)) if out else float("nan")


def main():
    args = [a for a in sys.argv[1:]]
    label = "estimate"
    if "--label" in args:
        i = args.index("--label"); label = args[i + 1]; del args[i:i + 2]
    brief = "--brief" in args
    if brief: args.remove("--brief")
    if len(args) == 2 and args[0] == "--real":
        return real(args[1], label)
    if len(args) != 2:
        sys.exit(__doc__)
    tt, tlat, tlon = read_truth(args[0])
    rows = read_estimate(args[1])
    lat0 = tlat[0]
    raw_err, est_err, within1, within2, n_sigma = [], [], 0, 0, 0
    for t, est, sigma, gps in rows:
        truth = (interp(tt, tlat, t), interp(tt, tlon, t))
        e = math.hypot(*metres(est, truth, lat0)); r = math.hypot(*metres(gps, truth, lat0))
        est_err.append(e); raw_err.append(r)
        if sigma is not None:
            n_sigma += 1; within1 += e <= sigma; within2 += e <= 2 * sigma
    times = [r[0] for r in rows]
    if brief:
        s1 = f"{100 * within1 / n_sigma:3.0f}%/{100 * within2 / n_sigma:3.0f}%" if n_sigma else "-"
        print(f"{label:<34} raw {pct(raw_err, 50):5.2f} {pct(raw_err, 95):5.2f}  est {pct(est_err, 50):5.2f} {pct(est_err, 95):5.2f}"
              f"  ratio {pct(est_err, 50) / pct(raw_err, 50):4.2f} {pct(est_err, 95) / pct(raw_err, 95):4.2f}  1s/2s {s1}")
        return
    print(f"{label}: {len(rows)} times")
    print(f"  raw fixes   median {pct(raw_err, 50):6.2f} m  p95 {pct(raw_err, 95):6.2f} m  max {max(raw_err):6.2f} m  jerk {jerk(times, [r[3] for r in rows], lat0):8.3f} m/s^3")
    print(f"  smoothed    median {pct(est_err, 50):6.2f} m  p95 {pct(est_err, 95):6.2f} m  max {max(est_err):6.2f} m  jerk {jerk(times, [r[1] for r in rows], lat0):8.3f} m/s^3")
    print(f"  ratio       median {pct(est_err, 50) / pct(raw_err, 50):6.2f}    p95 {pct(est_err, 95) / pct(raw_err, 95):6.2f}")
    if n_sigma:
        print(f"  sigma       {100 * within1 / n_sigma:5.1f} % within sigma, {100 * within2 / n_sigma:5.1f} % within 2 sigma")


def real(path, label):
    rows = read_estimate(path)
    lat0 = rows[0][1][0]
    times = [r[0] for r in rows]
    apart = [math.hypot(*metres(r[1], r[3], lat0)) for r in rows]
    worst = max(range(len(rows)), key=lambda i: apart[i])
    sig = [r[2] for r in rows if r[2] is not None]
    print(f"{label}: {len(rows)} fixes over {times[-1] - times[0]:.0f} s")
    print(f"  jerk        raw {jerk(times, [r[3] for r in rows], lat0):8.3f} m/s^3   smoothed {jerk(times, [r[1] for r in rows], lat0):8.3f} m/s^3")
    print(f"  smoothed-raw median {pct(apart, 50):5.2f} m  p95 {pct(apart, 95):5.2f} m  max {apart[worst]:5.2f} m (t = {times[worst]:.1f} s)")
    if sig:
        print(f"  sigma       median {pct(sig, 50):5.2f} m  p95 {pct(sig, 95):5.2f} m")


main()
