#!/usr/bin/env python3
"""Builds a poiar-log/1 replay over the 29 Lund stills (../shared/data/stills/lund), to look at
frames drawn over real photographs:

    python3 tools/make_lund_log.py --out /tmp/lund          # lund.csv, lund.camera.json, lund-demo-pois.csv
    poiar replay /tmp/lund/lund.csv --radar-range 150 --out /tmp/lund/frames

The stills carry only GPS, one accelerometer sample and a compass heading each (see the
stills' README), so the sensor rows are made from them:

- each still is a moment where the phone holds the recorded attitude: tilt from its
  accelerometer vector (iOS sign: the vector points down, so poiar's reading is −g·vector),
  heading from `true_heading_deg` — except stills 01–20, whose compass is about 155° off the
  way the camera looked (README); for those the heading is the GPS track's bearing (339°);
- between two stills the phone turns at a constant rate from one attitude to the next during
  the last second before the second still; the gyro reads that rate, the accelerometer and
  magnetometer read gravity and the Earth's field (horizontal 15.9 µT toward the declination
  of 3.25° E, vertical 47.5 µT down, about Lund's in 2014) in the turning device frame, at
  100 Hz, without noise;
- GPS at 1 Hz with the still's position and accuracy; a `frame` row at each still's time.

The stills are copied into DIR/stills (`# stills: stills`): poiar reads a log's stills, camera
and POIs only inside the log's folder (docs/security.md).

The POIs in lund-demo-pois.csv are NOT real places: a few made-up POIs of several categories
placed along the two streets, so the cards have something to label. Say so wherever a frame
of this replay is shown.
"""
import argparse
import csv
import math
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
STILLS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "data", "stills", "lund"))
G = 9.81
FIELD_H, FIELD_Z, DECLINATION = 15.9, 47.5, 3.25
TRACK_BEARING_01_20 = 339.0

# Made-up POIs (name, category, lat, lon, address): not real places.
DEMO_POIS = [
    ("Demo Café Tornet", "cafe", 55.69905, 13.19440, "Demo street 1"),
    ("Demo Bistro", "restaurant", 55.69935, 13.19425, "Demo street 8"),
    ("Demo Bank ATM", "atm", 55.69870, 13.19470, None),
    ("Demo Bookshop", "store", 55.69960, 13.19400, "Demo street 15"),
    ("Demo Museum", "museum", 55.70010, 13.19390, None),
    ("Demo Pharmacy", "pharmacy", 55.69890, 13.19505, "Demo square 2"),
    ("Demo Bus Station", "bus_station", 55.70040, 13.19430, None),
    ("Demo Park", "park", 55.69985, 13.19510, None),
]


def norm(v):
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v]


def dot(a, b): return sum(x * y for x, y in zip(a, b))
def cross(a, b): return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
def scale(v, k): return [c * k for c in v]
def add(*vs): return [sum(c) for c in zip(*vs)]


def attitude(accel_g, heading_deg):
    """Device→ENU rotation as rows (east, north, up) expressed in device coordinates."""
    up = norm([-c for c in accel_g])  # poiar: the accelerometer reads +g along up
    back = [0.0, 0.0, -1.0]           # the back camera looks along −z
    forward = norm(add(back, scale(up, -dot(back, up))))
    right = cross(forward, up)
    psi = math.radians(heading_deg)
    east = add(scale(forward, math.sin(psi)), scale(right, math.cos(psi)))
    north = add(scale(forward, math.cos(psi)), scale(right, -math.sin(psi)))
    return [east, north, up]          # R^T rows: ENU axes in device coordinates


def mat_mul(a, b): return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
def transpose(m): return [list(r) for r in zip(*m)]


def axis_angle(m):
    """Rotation vector of a rotation matrix."""
    c = max(-1.0, min(1.0, (m[0][0] + m[1][1] + m[2][2] - 1) / 2))
    angle = math.acos(c)
    if angle < 1e-9:
        return [0.0, 0.0, 0.0]
    k = angle / (2 * math.sin(angle))
    return [k * (m[2][1] - m[1][2]), k * (m[0][2] - m[2][0]), k * (m[1][0] - m[0][1])]


def rodrigues(w):
    angle = math.sqrt(dot(w, w))
    if angle < 1e-12:
        return [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    k = scale(w, 1 / angle)
    kx = [[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]]
    kx2 = mat_mul(kx, kx)
    s, c = math.sin(angle), 1 - math.cos(angle)
    return [[(1 if i == j else 0) + s * kx[i][j] + c * kx2[i][j] for j in range(3)] for i in range(3)]


def readings(rt):
    """Accelerometer and magnetometer in the device frame for R^T rows (east, north, up)."""
    east, north, up = rt
    accel = scale(up, G)
    d = math.radians(DECLINATION)
    field = add(scale(east, FIELD_H * math.sin(d)), scale(north, FIELD_H * math.cos(d)), scale(up, -FIELD_Z))
    return accel, field


def parse_time(s):
    # 2014-06-07T10:24:05.656Z -> seconds of the day
    hms = s.split("T")[1].rstrip("Z")
    h, m, sec = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(sec)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--stills", default=STILLS, help="the Lund stills folder")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = list(csv.DictReader(open(os.path.join(args.stills, "frames.csv"))))
    lead = 12.0
    t0 = parse_time(rows[0]["time_utc"]) - lead
    # Paths in a log stay inside its folder (docs/security.md): copy the stills beside it.
    stills_rel = "stills"
    os.makedirs(os.path.join(args.out, stills_rel), exist_ok=True)
    for r in rows:
        shutil.copy2(os.path.join(args.stills, r["file"]), os.path.join(args.out, stills_rel, r["file"]))
    out = []
    out.append("# format: poiar-log/1")
    out.append("# start_utc: " + rows[0]["time_utc"].split(".")[0] + "Z")
    out.append("# device: iPhone 4S stills (OpenSfM sample data, © Mapillary, BSD-2-Clause); sensor rows made by tools/make_lund_log.py")
    out.append("# camera: lund.camera.json")
    out.append("# pois: lund-demo-pois.csv")
    out.append("# stills: " + stills_rel)
    out.append("time,sensor,x,y,z,accuracy")
    samples = []  # (time, text)
    attitudes = []
    for i, r in enumerate(rows):
        heading = float(r["true_heading_deg"]) if i >= 20 else TRACK_BEARING_01_20
        accel_g = [float(r["accel_x_g"]), float(r["accel_y_g"]), float(r["accel_z_g"])]
        if i == 0:
            accel_g = [1.0, 0.0, 0.0]  # the first sample was taken while the phone moved (README)
        attitudes.append((parse_time(r["time_utc"]) - t0, attitude(accel_g, heading), r))
    rate = 100.0
    end = attitudes[-1][0] + 0.5
    k = 0
    t = 0.0
    step = 1 / rate
    n = 0
    while t <= end:
        while k + 1 < len(attitudes) and t > attitudes[k][0]:
            k += 1
        # Between still k-1 and k: hold k-1's attitude, turn during the last second.
        prev_t, prev_rt, _ = attitudes[max(0, k - 1)]
        next_t, next_rt, _ = attitudes[k]
        turn = 1.0
        omega = [0.0, 0.0, 0.0]
        rt = prev_rt if t <= prev_t else prev_rt
        if k > 0 and t > next_t - turn and t <= next_t:
            # R = R_prev · exp(ω̂ τ) with ω from R_prevᵀ R_next (device-frame rotation).
            r_prev, r_next = transpose(prev_rt), transpose(next_rt)
            w = scale(axis_angle(mat_mul(transpose(r_prev), r_next)), 1 / turn)
            omega = w
            rt = transpose(mat_mul(r_prev, rodrigues(scale(w, t - (next_t - turn)))))
        elif k == 0 or t > next_t:
            rt = next_rt
        accel, field = readings(rt)
        samples.append((t, "gyro", omega))
        samples.append((t, "accel", accel))
        samples.append((t, "mag", field))
        if n % 100 == 0:
            fix = attitudes[k][2] if t >= attitudes[k][0] - 0.5 else attitudes[max(0, k - 1)][2]
            samples.append((t, "gps", (fix["lat"], fix["lon"], fix["alt"], fix["gps_accuracy_m"])))
        n += 1
        t = n * step
    for (ts, _, r) in attitudes:
        samples.append((ts, "frame", r["file"]))
    samples.sort(key=lambda s: (s[0], ["gps", "gyro", "accel", "mag", "frame"].index(s[1])))
    for ts, kind, v in samples:
        if kind in ("gyro", "accel", "mag"):
            out.append(f"{ts:.3f},{kind},{v[0]:.6f},{v[1]:.6f},{v[2]:.6f},")
        elif kind == "gps":
            out.append(f"{ts:.3f},gps,{v[0]},{v[1]},{v[2]},{v[3]}")
        else:
            out.append(f"{ts:.3f},frame,{v},,,")
    with open(os.path.join(args.out, "lund.csv"), "w") as f:
        f.write("\n".join(out) + "\n")
    # iPhone 4S, 35 mm equivalent 35 mm on the 1024 px width: fx ≈ 996 (README); held landscape-right.
    with open(os.path.join(args.out, "lund.camera.json"), "w") as f:
        f.write('{"width": 1024, "height": 768, "fx": 996.0, "fy": 996.0, "cx": 512.0, "cy": 384.0, '
                '"orientation": "landscape-right"}\n')
    with open(os.path.join(args.out, "lund-demo-pois.csv"), "w") as f:
        f.write("id,name,category,lat,lon,address\n")
        for i, (name, cat, lat, lon, addr) in enumerate(DEMO_POIS):
            f.write(f"demo{i + 1},{name},{cat},{lat},{lon},{addr or ''}\n")


if __name__ == "__main__":
    main()
