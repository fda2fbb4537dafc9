#!/usr/bin/env python3
"""simulate_walk.py - a deterministic simulation of a phone recording a walk along Pohjoisesplanadi, Helsinki.

Writes, into SampleLogs/ (or --out-dir):
  walk.csv          the sensor log (poiar-log/1, docs: /work/shared/spec/interfaces.md section 1):
                    gyro + accel 100 Hz, mag 50 Hz, gps 1 Hz, frame rows 2 Hz (no stills)
  walk.truth.csv    true attitude at every gyro time: time,qw,qx,qy,qz,movement
                    (the truth format of pose_eval.py; movement = 1 on every row)
  walk.track.csv    true position and attitude angles at every frame time:
                    time,lat,lon,alt,heading_deg,pitch_deg,roll_deg
  walk.camera.json  the camera of the (synthetic) frames: portrait 720x1280, hfov 48 deg

Everything is SIMULATED from a known path and known attitudes. The story: a pedestrian
stands on the north sidewalk of Pohjoisesplanadi at the corner of Fabianinkatu, phone held
upright in portrait (back camera looking ahead), looks north-east up toward Cafe Engel,
turns left past Karl Fazer Cafe, walks WEST along the sidewalk (about 1.35 m/s, gentle head
sweeps), stops about 20 m before Cafe Strindberg, turns right to look at it for 10 s,
walks on and stops at the end of the block looking ahead-right toward Cafe Esplanad and
Cafe Aalto.

Conventions (the contract's)
----------------------------
ENU world: x east, y north, z up (a local tangent plane at the start point; over 250 m the
flat-earth error and the meridian convergence, 0.004 deg, are negligible). Device frame:
x right of the screen, y up along the screen, z out of the screen; the back camera looks
along -z. The attitude quaternion q (w, x, y, z) rotates device vectors into ENU:

    q = qz(-heading) * qx(90 deg + pitch) * qz(-roll)      (Hamilton products)

heading = azimuth of the camera axis R*(0,0,-1) (0 north, 90 east), pitch = its
elevation, roll = rotation about it (+ clockwise as seen by the user).

Sensors (device frame)
----------------------
gyro   rad/s, 100 Hz. The noise-free rate at t_k is the mean body rate over
       [t_k - dt/2, t_k + dt/2]: w_k = 2*log(q(t_k - dt/2)^-1 * q(t_k + dt/2))/dt
       (so that q' = 1/2 q * (0, w)); plus a constant bias GYRO_BIAS and white noise
       sigma 0.003 rad/s. 6 decimals.
accel  m/s^2, 100 Hz, the same times. Specific force R^T (a_world + (0, 0, 9.81)),
       a_world = second derivative of the true position: the path, the start/stop
       ramps, a vertical bounce of +-1 m/s^2 at the step frequency 1.8 Hz, a forward
       surge of +-0.4 m/s^2 at 1.8 Hz and a sideways sway of +-0.25 m/s^2 at 0.9 Hz
       (all scaled by the walking speed, so zero when standing). White noise sigma
       0.05 m/s^2, no bias. 4 decimals.
mag    uT, 50 Hz. R^T m_world + white noise sigma 0.3 uT. m_world: WMM2025 (pygeomag with
       /work/shared/data/wmm/WMM2025.COF) at the start point, ellipsoidal height 21.4 m,
       date of start_utc; (E, N, U) = (Y, X, -Z)/1000. No hard/soft iron. 2 decimals.
gps    1 Hz. latitude/longitude (7 decimals) = truth + a slowly varying error (first-order
       Gauss-Markov per axis, tau 20 s, sigma = accuracy/1.51 so that the stated accuracy
       is the 68 % radius); altitude = 21.4 m ellipsoidal (2.5 m above sea level from OSM +
       1.4 m hand height + geoid 17.5 m) + error (1 decimal); accuracy 3-8 m (1 decimal).
       Three consecutive fixes (BAD_FIXES) have accuracy 160-390 m and positions that
       far off: a reader must reject them.
frame  2 Hz, `t,frame,,,,` (no still image: a synthetic background).

Delivery order: like a phone's sensor batches, rows are written in the order in which
they would arrive: gyro in batches of 4 (written 15 ms after the last sample), accel in
batches of 5 (+25 ms), mag in batches of 5 (+40 ms), gps 0.30 s late, frames 30 ms
late. Within each sensor times strictly increase; across sensors rows are up to 0.3 s
out of time order. Time 0.000 is the first gyro/accel sample.

Usage
-----
    pip install pygeomag        # numpy is needed too
    python3 tools/simulate_walk.py [--out-dir SampleLogs] [--seed 20250614]

The output is deterministic for a given seed (numpy's PCG64 Generator). The script checks
itself with asserts (conventions, gyro integration, accel at rest, heading from the
quaternions) and prints when each sample cafe is in the camera's view.
"""
import argparse
import datetime
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(os.path.dirname(HERE), 'SampleLogs')
WMM_COF = '/work/shared/data/wmm/WMM2025.COF'
DEFAULT_SEED = 20250614
START_UTC = '2025-06-14T10:02:11Z'

G = 9.81
FS_IMU = 100            # gyro + accel, Hz
FS_MAG = 50
FS_GPS = 1
FS_FRAME = 2
FINE = 1000             # internal simulation grid, Hz (every sample time lies on it)
PAD = 10                # fine-grid samples before time 0 and after the end
MAG_T0 = 0.004          # mag clock offset: samples at 0.004 + k/50
FRAME_T0 = 0.100        # frames at 0.100 + k/2
GPS_T0 = 0.0            # fixes at k/1

GYRO_BIAS = np.array([0.0040, -0.0025, 0.0030])     # rad/s, constant
GYRO_SIGMA = 0.003                                   # rad/s
ACCEL_SIGMA = 0.05                                   # m/s^2
MAG_SIGMA = 0.3                                      # uT
GPS_TAU = 20.0                                       # s
BAD_FIXES = ((95, 160.0, 150.0, 210.0),              # (second, accuracy m, offset m, offset bearing deg)
             (96, 240.0, 230.0, 195.0),
             (97, 390.0, 370.0, 220.0))

ALT = 21.4              # ellipsoidal height of the phone, m
STEP_HZ = 1.8
BOUNCE = 1.0            # m/s^2, vertical, at STEP_HZ
SURGE = 0.4             # m/s^2, forward, at STEP_HZ
SWAY = 0.25             # m/s^2, sideways, at STEP_HZ / 2
SPEED = 1.35            # m/s
RAMP = 1.5              # s, start/stop ramps

# The north sidewalk of Pohjoisesplanadi (OSM footway way 86402938, its nodes), west of
# Fabianinkatu: 3-6 m south of the building fronts, 7 m north of the street's centre line.
WAYPOINTS = [
    (60.1678863, 24.9493217),   # node 314736833, corner of Fabianinkatu (start)
    (60.1678645, 24.9485086),   # node 6241408297
    (60.1678391, 24.9475584),   # node 296250846, at Kluuvikatu
    (60.1678188, 24.9468011),   # node 5249085787
    (60.1677915, 24.9457845),   # node 296250857, at Mikonkatu
    (60.1677747, 24.9451467),   # node 1749893248
    (60.1677651, 24.9447805),   # node 337620178 (end: ~1 m past it)
]
CAFES = [  # from SampleLogs/helsinki-esplanadi.osm
    ('osm:node/307465178', 'Cafe Engel', 60.1689130, 24.9517450),
    ('osm:node/606996912', 'Karl Fazer Café', 60.1685094, 24.9476869),
    ('osm:node/606996900', 'Café Strindberg', 60.1679074, 24.9460908),
    ('osm:node/1985598534', 'Cafe Esplanad', 60.1678132, 24.9446395),
    ('osm:node/2270234280', 'Café Aalto', 60.1681979, 24.9436721),
]
CAMERA = {"width": 720, "height": 1280, "fx": 808.6, "fy": 808.6, "cx": 360.0, "cy": 640.0,
          "orientation": "portrait"}

# --------------------------------------------------------------------------- geodesy

A_WGS = 6378137.0
F_WGS = 1 / 298.257223563
E2 = F_WGS * (2 - F_WGS)
LAT0, LON0 = WAYPOINTS[0]
_s0 = math.sin(math.radians(LAT0))
M0 = A_WGS * (1 - E2) / (1 - E2 * _s0 * _s0) ** 1.5      # meridian radius of curvature
N0 = A_WGS / math.sqrt(1 - E2 * _s0 * _s0)               # prime vertical radius


def to_en(lat, lon):
    return (np.radians(np.asarray(lon) - LON0) * N0 * math.cos(math.radians(LAT0)),
            np.radians(np.asarray(lat) - LAT0) * M0)


def to_latlon(e, n):
    return (LAT0 + np.degrees(np.asarray(n) / M0),
            LON0 + np.degrees(np.asarray(e) / (N0 * math.cos(math.radians(LAT0)))))


def bearing_deg(e, n):
    return math.degrees(math.atan2(e, n)) % 360.0


# --------------------------------------------------------------------------- quaternions

def qmul(a, b):
    aw, ax, ay, az = np.moveaxis(np.asarray(a, float), -1, 0)
    bw, bx, by, bz = np.moveaxis(np.asarray(b, float), -1, 0)
    return np.stack([aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw], axis=-1)


def qconj(q):
    q = np.array(q, float)
    q[..., 1:] *= -1
    return q


def qaxis(axis, ang):
    """Rotation by ang (radians, array) about a coordinate axis (0 x, 1 y, 2 z), right-handed."""
    ang = np.asarray(ang, float)
    q = np.zeros(ang.shape + (4,))
    q[..., 0] = np.cos(ang / 2)
    q[..., 1 + axis] = np.sin(ang / 2)
    return q


def qlog_vec(q):
    """Rotation vector (axis * angle) of unit quaternions (w >= 0 taken)."""
    q = np.where(q[..., :1] < 0, -q, q)
    v = q[..., 1:]
    s = np.linalg.norm(v, axis=-1)
    ang = 2 * np.arctan2(s, q[..., 0])
    with np.errstate(invalid='ignore', divide='ignore'):
        k = np.where(s > 1e-15, ang / s, 2.0)
    return v * k[..., None]


def qexp_vec(r):
    ang = np.linalg.norm(r, axis=-1)
    with np.errstate(invalid='ignore', divide='ignore'):
        k = np.where(ang > 1e-15, np.sin(ang / 2) / ang, 0.5)
    return np.concatenate([np.cos(ang / 2)[..., None], r * k[..., None]], axis=-1)


def rotmat(q):
    w, x, y, z = np.moveaxis(q, -1, 0)
    R = np.empty(w.shape + (3, 3))
    R[..., 0, 0] = 1 - 2 * (y * y + z * z)
    R[..., 0, 1] = 2 * (x * y - w * z)
    R[..., 0, 2] = 2 * (x * z + w * y)
    R[..., 1, 0] = 2 * (x * y + w * z)
    R[..., 1, 1] = 1 - 2 * (x * x + z * z)
    R[..., 1, 2] = 2 * (y * z - w * x)
    R[..., 2, 0] = 2 * (x * z - w * y)
    R[..., 2, 1] = 2 * (y * z + w * x)
    R[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return R


def attitude(heading_deg, pitch_deg, roll_deg):
    """q = qz(-heading) * qx(90 deg + pitch) * qz(-roll), canonical w >= 0."""
    h, p, r = (np.radians(np.asarray(a, float)) for a in (heading_deg, pitch_deg, roll_deg))
    q = qmul(qmul(qaxis(2, -h), qaxis(0, math.pi / 2 + p)), qaxis(2, -r))
    return np.where(q[..., :1] < 0, -q, q)


def angles_from_q(q):
    """heading/pitch/roll in degrees from device->ENU quaternions (inverse of attitude())."""
    R = rotmat(q)
    c = -R[..., :, 2]                        # camera axis R (0,0,-1)
    yw = R[..., :, 1]                        # device y axis in ENU
    heading = np.degrees(np.arctan2(c[..., 0], c[..., 1])) % 360.0
    pitch = np.degrees(np.arcsin(np.clip(c[..., 2], -1, 1)))
    up = np.array([0.0, 0.0, 1.0]) - c[..., 2:3] * c
    up /= np.linalg.norm(up, axis=-1, keepdims=True)
    s = np.einsum('...i,...i', np.cross(up, yw), c)
    roll = np.degrees(np.arctan2(s, np.einsum('...i,...i', up, yw)))
    return heading, pitch, roll


def check_conventions():
    q = attitude(0.0, 0.0, 0.0)
    R = rotmat(q)
    assert np.allclose(R @ [1, 0, 0], [1, 0, 0], atol=1e-12), 'device x must point east'
    assert np.allclose(R @ [0, 1, 0], [0, 0, 1], atol=1e-12), 'device y must point up'
    assert np.allclose(R @ [0, 0, 1], [0, -1, 0], atol=1e-12), 'device z must point south'
    assert np.allclose(R @ [0, 0, -1], [0, 1, 0], atol=1e-12), 'camera must look north'
    # heading 90: camera east; pitch +30: camera 30 deg above the horizon
    c = rotmat(attitude(90.0, 30.0, 0.0)) @ [0, 0, -1]
    assert np.allclose(c, [math.cos(math.radians(30)), 0, math.sin(math.radians(30))], atol=1e-12)
    # roll +20 (clockwise as the user sees the screen): device x tilts down, y tilts toward east
    R = rotmat(attitude(0.0, 0.0, 20.0))
    assert R[2, 0] < 0 and R[0, 1] > 0, 'positive roll turns the device clockwise'
    # matrix form of the contract: Rz(-h) R0 Rx(p) Rz(-r)
    h, p, r = (math.radians(v) for v in (123.0, -7.0, 4.0))

    def rz(a):
        return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])

    def rx(a):
        return np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    R0 = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]])
    assert np.allclose(rotmat(attitude(123.0, -7.0, 4.0)), rz(-h) @ R0 @ rx(p) @ rz(-r), atol=1e-12)
    hh, pp, rr = angles_from_q(attitude(123.0, -7.0, 4.0))
    assert abs(hh - 123.0) < 1e-9 and abs(pp + 7.0) < 1e-9 and abs(rr - 4.0) < 1e-9


# --------------------------------------------------------------------------- scenario

def smoother(x):
    """smootherstep: 0 for x <= 0, 1 for x >= 1, C2 in between."""
    x = np.clip(x, 0.0, 1.0)
    return x * x * x * (x * (x * 6 - 15) + 10)


def keyframed(t, start_value, moves):
    """A value that starts at start_value and moves to each (t0, t1, target) in turn, smoothly."""
    v = np.full_like(t, float(start_value))
    cur = float(start_value)
    for t0, t1, target in moves:
        v += (target - cur) * smoother((t - t0) / (t1 - t0))
        cur = target
    return v


class Path:
    """The waypoint polyline, smoothed (Gaussian, sigma 2 m along the path), by arc length."""

    def __init__(self, waypoints, extra_end=1.0):
        lat, lon = np.array(waypoints).T
        e, n = to_en(lat, lon)
        P = np.column_stack([e, n])
        # resample at 5 cm, with straight 30 m run-outs at both ends for the smoothing
        d0 = (P[0] - P[1]) / np.linalg.norm(P[0] - P[1])
        d1 = (P[-1] - P[-2]) / np.linalg.norm(P[-1] - P[-2])
        P = np.vstack([P[0] + 30 * d0, P, P[-1] + 30 * d1])
        seg = np.linalg.norm(np.diff(P, axis=0), axis=1)
        s = np.concatenate([[0], np.cumsum(seg)])
        ds = 0.05
        ss = np.arange(0, s[-1], ds)
        pts = np.column_stack([np.interp(ss, s, P[:, 0]), np.interp(ss, s, P[:, 1])])
        k = np.arange(-200, 201) * ds
        w = np.exp(-0.5 * (k / 2.0) ** 2)
        w /= w.sum()
        sm = np.column_stack([np.convolve(pts[:, i], w, mode='same') for i in range(2)])
        # cut the run-outs: keep from the point nearest the first waypoint
        i0 = int(np.argmin(np.linalg.norm(sm - P[1], axis=1)))
        i1 = int(np.argmin(np.linalg.norm(sm - P[-2], axis=1)))
        sm = sm[i0:i1 + 1 + int(round(extra_end / ds))]
        seg = np.linalg.norm(np.diff(sm, axis=0), axis=1)
        self.s = np.concatenate([[0], np.cumsum(seg)])
        self.pts = sm
        self.length = float(self.s[-1])
        tan = np.gradient(sm, self.s, axis=0)
        self.tan = tan / np.linalg.norm(tan, axis=1, keepdims=True)

    def at(self, s):
        return np.column_stack([np.interp(s, self.s, self.pts[:, i]) for i in range(2)])

    def tangent(self, s):
        t = np.column_stack([np.interp(s, self.s, self.tan[:, i]) for i in range(2)])
        return t / np.linalg.norm(t, axis=1, keepdims=True)

    def s_at_lon(self, lon):
        e, _ = to_en(LAT0, lon)
        return float(np.interp(-e, -self.pts[:, 0], self.s))   # e decreases along the walk


def build_scenario(rng):
    """Truth on the 1 kHz grid: t, position ENU (N,3), heading/pitch/roll (deg), walking weight."""
    path = Path(WAYPOINTS)
    v0 = SPEED
    # --- timeline
    t_walk1 = 12.0                               # start walking
    s_pause = path.s_at_lon(24.94640)            # ~20 m east of Cafe Strindberg
    t_stop1 = t_walk1 + s_pause / v0 + RAMP      # each ramp loses v0*RAMP/2 of distance
    pause = 14.0                                 # turn right 2 s, look 10 s, turn back 2 s
    t_walk2 = t_stop1 + pause
    s_end = path.length
    t_stop2 = t_walk2 + (s_end - s_pause) / v0 + RAMP
    t_total = t_stop2 + 6.0
    n = int(round(t_total * FINE)) + 1 + 2 * PAD
    t = (np.arange(n) - PAD) / FINE          # a few ms before 0 and after the end (gyro needs +-dt/2)

    # --- speed and distance along the path
    def trapezoid(ta, tb):
        return smoother((t - ta) / RAMP) - smoother((t - (tb - RAMP)) / RAMP)
    wv = trapezoid(t_walk1, t_stop1) + trapezoid(t_walk2, t_stop2)      # 0..1
    v = v0 * wv
    s = np.concatenate([[0], np.cumsum(0.5 * (v[1:] + v[:-1]) / FINE)])
    assert abs(s[PAD + int(round(t_stop1 * FINE))] - s_pause) < 0.01, 'pause point'
    assert abs(s[-1] - s_end) < 0.01, 'end point'
    s = np.clip(s, 0, path.length)

    # --- position: path + walking oscillations (bounce, surge, sway), scaled by wv
    xy = path.at(s)
    tan = path.tangent(s)
    nrm = np.column_stack([tan[:, 1], -tan[:, 0]])            # right of the walking direction
    w_step = 2 * math.pi * STEP_HZ
    ph = rng.uniform(0, 2 * math.pi, 8)
    bounce = -BOUNCE / w_step ** 2 * np.sin(w_step * t + ph[0]) * wv
    surge = -SURGE / w_step ** 2 * np.sin(w_step * t + ph[1]) * wv
    sway = -SWAY / (w_step / 2) ** 2 * np.sin(w_step / 2 * t + ph[2]) * wv
    pos = np.column_stack([xy + tan * surge[:, None] + nrm * sway[:, None], ALT + bounce])

    # --- attitude
    walk_bearing = np.degrees(np.arctan2(tan[:, 0], tan[:, 1]))           # about -93 deg
    p_start = pos[PAD, :2]
    p_pause = path.at(np.array([s_pause]))[0]
    p_end = path.at(np.array([s_end]))[0]
    cafe_en = {name: np.array(to_en(lat, lon)) for _id, name, lat, lon in CAFES}

    def rel(frm, name, base):           # heading toward a cafe, relative to the walking bearing
        d = cafe_en[name] - frm
        b = math.degrees(math.atan2(d[0], d[1]))
        return (b - base + 180.0) % 360.0 - 180.0
    b0 = float(walk_bearing[PAD])
    b_pause = float(np.degrees(np.arctan2(*path.tangent(np.array([s_pause]))[0])))
    b_end = float(np.degrees(np.arctan2(*path.tangent(np.array([s_end]))[0])))
    off_engel = rel(p_start, 'Cafe Engel', b0)     # about +143: the walker turns LEFT from Engel to the walk
    off_fazer = rel(p_start, 'Karl Fazer Café', b0)
    off_strind = rel(p_pause, 'Café Strindberg', b_pause)
    off_end = 0.5 * (rel(p_end, 'Café Aalto', b_end) + rel(p_end, 'Cafe Esplanad', b_end))
    offset = keyframed(t, off_engel, [
        (5.0, 9.0, off_fazer),                  # turn left, stop on Karl Fazer
        (10.5, 13.0, 0.0),                      # turn to the walking direction, start walking
        (t_stop1 - 0.5, t_stop1 + 1.5, off_strind),   # turn right toward Cafe Strindberg
        (t_stop1 + 11.5, t_stop1 + 13.5, 0.0),  # and back
        (t_stop2 - 0.5, t_stop2 + 1.5, off_end),      # at the end: ahead-right (Esplanad, Aalto)
    ])
    sweep = (14.0 * np.sin(2 * math.pi * t / 9.0 + ph[3]) + 7.0 * np.sin(2 * math.pi * t / 5.3 + ph[4])) * wv
    heading = walk_bearing + offset + sweep
    pitch = (5.0 + 1.5 * np.sin(2 * math.pi * t / 13.0 + ph[5]) + 0.8 * np.sin(2 * math.pi * t / 4.3 + ph[6])
             + 0.6 * np.sin(w_step * t + ph[0] + 0.5) * wv
             + keyframed(t, 2.0, [(10.5, 13.0, 0.0), (t_stop1 - 0.5, t_stop1 + 1.5, 5.0),
                                  (t_stop1 + 11.5, t_stop1 + 13.5, 0.0), (t_stop2 - 0.5, t_stop2 + 1.5, 3.0)]))
    roll = (1.2 * np.sin(2 * math.pi * t / 11.0 + ph[7]) + 0.6 * np.sin(2 * math.pi * t / 3.7 + ph[3] + 1.0)
            + 1.0 * np.sin(w_step / 2 * t + ph[2] + 0.3) * wv)
    events = dict(t_walk1=t_walk1, t_stop1=t_stop1, t_walk2=t_walk2, t_stop2=t_stop2, t_total=t_total,
                  s_pause=s_pause, s_end=s_end, path_length=path.length)
    return t, pos, heading, pitch, roll, wv, events, path


# --------------------------------------------------------------------------- magnetic field

def wmm_field(lat, lon, alt_m, when):
    try:
        from pygeomag import GeoMag
    except ImportError:
        raise SystemExit('simulate_walk.py needs pygeomag: pip install pygeomag')
    start = datetime.datetime(when.year, 1, 1, tzinfo=datetime.timezone.utc)
    days = (datetime.datetime(when.year + 1, 1, 1, tzinfo=datetime.timezone.utc) - start).days
    year = when.year + (when - start).total_seconds() / 86400.0 / days
    gm = GeoMag(coefficients_file=WMM_COF) if os.path.exists(WMM_COF) else GeoMag(base_year=2025)
    r = gm.calculate(glat=lat, glon=lon, alt=alt_m / 1000.0, time=year)
    enu = np.array([r.y, r.x, -r.z]) / 1000.0
    return enu, r.d, r.i, r.f / 1000.0, year


# --------------------------------------------------------------------------- main

def fmt_rows(t, sensor, vals, decimals, extra=''):
    f = '%.3f,' + sensor + ',' + ','.join(['%.' + str(decimals) + 'f'] * 3) + ',' + extra
    return [f % (ti, a, b, c) for ti, (a, b, c) in zip(t, vals)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out-dir', default=DEFAULT_OUT)
    ap.add_argument('--seed', type=int, default=DEFAULT_SEED)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    check_conventions()

    t, pos, heading, pitch, roll, wv, ev, path = build_scenario(rng)
    q = attitude(heading, pitch, roll)
    n = len(t)
    step = FINE // FS_IMU
    half = step // 2

    def idx(t0, rate):   # fine-grid indices of a sensor's sample times t0 + k/rate, 0 <= time <= the end
        return np.arange(PAD + int(round(t0 * FINE)), n - PAD, FINE // rate)

    # ---- IMU samples: 0.000, 0.010, ... (the grid has PAD ms on either side for q(t +- dt/2))
    imu_idx = idx(0.0, FS_IMU)
    t_imu = t[imu_idx]
    q_imu = q[imu_idx]
    R_imu = rotmat(q_imu)

    # gyro: mean body rate over [t - dt/2, t + dt/2]
    dq = qmul(qconj(q[imu_idx - half]), q[imu_idx + half])
    w_true = qlog_vec(dq) / (step / FINE)
    # check: integrating the noise-free rates (midpoint rule) reproduces the truth
    qi = q[imu_idx[0] - half].copy()
    inc = qexp_vec(w_true * (step / FINE))
    errs = []
    for k in range(len(imu_idx)):
        qi = qmul(qi, inc[k])
        if k % 500 == 0 or k == len(imu_idx) - 1:
            e = qmul(qconj(q[imu_idx[k] + half]), qi)
            errs.append(2 * math.degrees(math.acos(min(1.0, abs(e[0])))))
    assert max(errs) < 1e-4, 'gyro integration drifts from the truth: %g deg' % max(errs)
    # ... and so does an integrator on the sample times, q_k = q_{k-1} * exp((w_{k-1} + w_k)/2 dt),
    # to within 0.05 deg (the plain q_k = q_{k-1} * exp(w_k dt) lags by dt/2: up to ~0.25 deg in turns)
    inc_trap = qexp_vec(0.5 * (w_true[1:] + w_true[:-1]) * (step / FINE))
    qi = q_imu[0].copy()
    worst = 0.0
    for k in range(1, len(imu_idx)):
        qi = qmul(qi, inc_trap[k - 1])
        if k % 10 == 0:
            e = qmul(qconj(q_imu[k]), qi)
            worst = max(worst, 2 * math.degrees(math.acos(min(1.0, abs(e[0])))))
    assert worst < 0.05, 'gyro integration (trapezoid) error %.3f deg' % worst
    gyro = w_true + GYRO_BIAS + rng.normal(0, GYRO_SIGMA, w_true.shape)

    # accel: specific force from the second derivative of the position
    vel = np.gradient(pos, 1.0 / FINE, axis=0)
    acc_w = np.gradient(vel, 1.0 / FINE, axis=0)
    f_world = acc_w[imu_idx] + np.array([0, 0, G])
    f_dev = np.einsum('nji,nj->ni', R_imu, f_world)       # R^T f
    rest = wv[imu_idx] == 0
    assert rest.sum() > 500
    assert np.allclose(np.linalg.norm(f_dev[rest], axis=1), G, atol=1e-3), 'accel at rest must read 9.81'
    accel = f_dev + rng.normal(0, ACCEL_SIGMA, f_dev.shape)

    # heading from the truth quaternions matches the input heading
    h_q, p_q, r_q = angles_from_q(q_imu)
    dh = (h_q - heading[imu_idx] + 180) % 360 - 180
    assert np.max(np.abs(dh)) < 1e-6 and np.max(np.abs(p_q - pitch[imu_idx])) < 1e-6
    assert np.max(np.abs(r_q - roll[imu_idx])) < 1e-6

    # mag
    start = datetime.datetime.strptime(START_UTC, '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=datetime.timezone.utc)
    m_enu, decl, incl, ftot, year = wmm_field(LAT0, LON0, ALT, start)
    mag_idx = idx(MAG_T0, FS_MAG)
    t_mag = t[mag_idx]
    mag = np.einsum('nji,j->ni', rotmat(q[mag_idx]), m_enu) + rng.normal(0, MAG_SIGMA, (len(mag_idx), 3))

    # gps
    gps_idx = idx(GPS_T0, FS_GPS)
    t_gps = t[gps_idx]
    ng = len(gps_idx)
    ph = rng.uniform(0, 2 * math.pi, 2)
    accuracy = np.clip(5.0 + 1.6 * np.sin(2 * math.pi * t_gps / 70.0 + ph[0])
                       + 0.8 * np.sin(2 * math.pi * t_gps / 23.0 + ph[1]), 3.0, 8.0)
    accuracy = np.round(accuracy, 1)
    phi = math.exp(-1.0 / (GPS_TAU * FS_GPS))
    gm = np.empty((ng, 3))
    gm[0] = rng.normal(0, 1, 3)
    for k in range(1, ng):
        gm[k] = phi * gm[k - 1] + math.sqrt(1 - phi * phi) * rng.normal(0, 1, 3)
    sigma_h = accuracy / 1.51
    err = gm * np.column_stack([sigma_h, sigma_h, 1.5 * sigma_h])
    gps_pos = pos[gps_idx] + err
    for sec, acc_bad, off, brg in BAD_FIXES:
        k = int(np.argmin(np.abs(t_gps - sec)))
        accuracy[k] = acc_bad
        gps_pos[k, 0] += off * math.sin(math.radians(brg))
        gps_pos[k, 1] += off * math.cos(math.radians(brg))
        gps_pos[k, 2] += 0.3 * off
    g_lat, g_lon = to_latlon(gps_pos[:, 0], gps_pos[:, 1])
    good = accuracy <= 100
    herr = np.linalg.norm(err[good, :2], axis=1)

    # frames
    fr_idx = idx(FRAME_T0, FS_FRAME)
    t_fr = t[fr_idx]

    # ---- rows with their delivery time
    events = []   # (write_time, sensor order, seq, line)

    def batched(times, lines, batch, latency, order):
        for i0 in range(0, len(times), batch):
            wt = times[min(i0 + batch, len(times)) - 1] + latency
            for j in range(i0, min(i0 + batch, len(times))):
                events.append((wt, order, j, lines[j]))
    batched(t_imu, fmt_rows(t_imu, 'gyro', gyro, 6), 4, 0.015, 0)
    batched(t_imu, fmt_rows(t_imu, 'accel', accel, 4), 5, 0.025, 1)
    batched(t_mag, fmt_rows(t_mag, 'mag', mag, 2), 5, 0.040, 2)
    gps_lines = ['%.3f,gps,%.7f,%.7f,%.1f,%.1f' % (tt, la, lo, al, ac)
                 for tt, la, lo, al, ac in zip(t_gps, g_lat, g_lon, gps_pos[:, 2], accuracy)]
    batched(t_gps, gps_lines, 1, 0.300, 3)
    batched(t_fr, ['%.3f,frame,,,,' % tt for tt in t_fr], 1, 0.030, 4)
    events.sort(key=lambda e: (round(e[0], 6), e[1], e[2]))
    # the log ends with the last IMU sample: drop rows of any sensor after it
    t_last = t_imu[-1]
    lines_out = [e[3] for e in events if float(e[3].split(',', 1)[0]) <= t_last]

    # check the disorder and the order within each sensor
    last = {}
    worst_back = 0.0
    t_max = -1.0
    for ln in lines_out:
        tt, sn = ln.split(',')[:2]
        tt = float(tt)
        assert tt > last.get(sn, -1.0), 'time must increase within %s' % sn
        last[sn] = tt
        worst_back = max(worst_back, t_max - tt)
        t_max = max(t_max, tt)
    assert worst_back <= 0.5

    os.makedirs(args.out_dir, exist_ok=True)
    hdr = [
        '# format: poiar-log/1',
        '# start_utc: %s' % START_UTC,
        '# device: poiar simulator (tools/simulate_walk.py, seed %d)' % args.seed,
        '# camera: walk.camera.json',
        '# pois: helsinki-esplanadi.osm',
        '# sim_note: SIMULATED sensor data (known path and attitude + noise); truth in walk.truth.csv and walk.track.csv',
        '# sim_mag_field_enu_ut: %.3f, %.3f, %.3f' % tuple(m_enu),
        '# sim_declination_deg: %.3f' % decl,
        '# sim_inclination_deg: %.3f' % incl,
        '# sim_field_total_ut: %.3f' % ftot,
        '# sim_wmm: WMM2025 at %.7f N, %.7f E, %.1f m ellipsoidal, decimal year %.4f' % (LAT0, LON0, ALT, year),
        '# sim_gyro_bias_rad_s: %.4f, %.4f, %.4f' % tuple(GYRO_BIAS),
        '# sim_noise_sigma: gyro %.3f rad/s, accel %.2f m/s2, mag %.1f uT' % (GYRO_SIGMA, ACCEL_SIGMA, MAG_SIGMA),
        '# sim_bad_gps_fixes: %s (accuracy > 100 m, positions off by as much)'
        % ', '.join('%.3f' % b[0] for b in BAD_FIXES),
        'time,sensor,x,y,z,accuracy',
    ]
    write(os.path.join(args.out_dir, 'walk.csv'), hdr + lines_out)

    truth = ['time,qw,qx,qy,qz,movement'] + ['%.3f,%.8f,%.8f,%.8f,%.8f,1' % (tt, *qq) for tt, qq in zip(t_imu, q_imu)]
    write(os.path.join(args.out_dir, 'walk.truth.csv'), truth)

    f_lat, f_lon = to_latlon(pos[fr_idx, 0], pos[fr_idx, 1])
    h_f, p_f, r_f = angles_from_q(q[fr_idx])
    keep = t_fr <= t_last
    track = ['time,lat,lon,alt,heading_deg,pitch_deg,roll_deg'] + [
        '%.3f,%.8f,%.8f,%.3f,%.3f,%.3f,%.3f' % row
        for row in zip(t_fr[keep], f_lat[keep], f_lon[keep], pos[fr_idx, 2][keep], h_f[keep], p_f[keep], r_f[keep])]
    write(os.path.join(args.out_dir, 'walk.track.csv'), track)

    with open(os.path.join(args.out_dir, 'walk.camera.json'), 'w') as f:
        f.write(json.dumps(CAMERA) + '\n')

    # ---- report
    print('seed %d: %.3f s, path %.1f m; walk %.1f-%.1f s, pause (Cafe Strindberg) %.1f-%.1f s, walk %.1f-%.1f s'
          % (args.seed, t_last, ev['path_length'], ev['t_walk1'], ev['t_stop1'], ev['t_stop1'], ev['t_walk2'],
             ev['t_walk2'], ev['t_stop2']))
    print('rows: gyro %d, accel %d, mag %d, gps %d (%d bad), frame %d; worst cross-sensor step back %.3f s'
          % (len(t_imu), len(t_imu), len(t_mag), ng, int((~good).sum()), int(keep.sum()), worst_back))
    print('mag field ENU %s uT, D %.3f deg, I %.3f deg, F %.3f uT (decimal year %.4f)'
          % (np.round(m_enu, 3), decl, incl, ftot, year))
    print('gps horizontal error (good fixes): rms %.2f m, max %.2f m; accuracy %.1f-%.1f m'
          % (math.sqrt(np.mean(herr ** 2)), herr.max(), accuracy[good].min(), accuracy[good].max()))
    print('heading range while walking: %.1f..%.1f deg; pitch %.1f..%.1f; roll %.1f..%.1f; peak rate %.1f deg/s'
          % (np.min(heading[wv > 0.99] % 360), np.max(heading[wv > 0.99] % 360), pitch.min(), pitch.max(),
             roll.min(), roll.max(), math.degrees(np.max(np.linalg.norm(w_true, axis=1)))))
    print('gyro integration on the sample times (trapezoid, no noise): max error %.4f deg' % worst)
    visibility(t_fr[keep], pos[fr_idx][keep], q[fr_idx][keep])
    return 0


def visibility(tf, pos, q):
    """When each cafe projects inside the image (contract section 3 camera model, POI at device altitude)."""
    R = rotmat(q)
    print('cafes in view (frame times; u = image x of the anchor, 0..720, left..right):')
    for _id, name, lat, lon in CAFES:
        e, nn = to_en(lat, lon)
        d_enu = np.column_stack([e - pos[:, 0], nn - pos[:, 1], np.zeros(len(tf))])
        d = np.einsum('nji,nj->ni', R, d_enu)
        X, Y, Z = d[:, 0], -d[:, 1], -d[:, 2]
        with np.errstate(divide='ignore', invalid='ignore'):
            u = CAMERA['fx'] * X / Z + CAMERA['cx']
            vv = CAMERA['fy'] * Y / Z + CAMERA['cy']
        vis = (Z > 0) & (u >= 0) & (u < CAMERA['width']) & (vv >= 0) & (vv < CAMERA['height'])
        dist = np.hypot(d_enu[:, 0], d_enu[:, 1])
        ranges = []
        i = 0
        while i < len(tf):
            if vis[i]:
                j = i
                while j + 1 < len(tf) and vis[j + 1]:
                    j += 1
                ranges.append('%.1f-%.1f s (%.0f-%.0f m, u %.0f..%.0f)'
                              % (tf[i], tf[j], dist[i:j + 1].min(), dist[i:j + 1].max(),
                                 u[i:j + 1].min(), u[i:j + 1].max()))
                i = j + 1
            else:
                i += 1
        print('  %-18s %d frames: %s' % (name, int(vis.sum()), '; '.join(ranges) if ranges else 'never'))


def write(path, lines):
    tmp = path + '.tmp'
    with open(tmp, 'w', newline='\n') as f:
        f.write('\n'.join(lines) + '\n')
    os.replace(tmp, path)


if __name__ == '__main__':
    sys.exit(main())
