#!/usr/bin/env python3
"""make_phone_fixtures.py - phone-app exports for poiar's import tests, made from a simulated log.

Reads Tests/Fixtures/phone/look-around.csv (made by
  poiar simulate --waypoints "60.1678863,24.9493217" --script look-around --duration 4 \
      --seed 11 --fps 0 --gyro-bias 0.002,-0.001,0.0015 --out look-around.csv --truth look-around.truth.csv)
and its truth, and writes the same samples as the apps export them (formats from the apps'
documentation and source; see docs/formats.md, "Phone recordings"):

  sensorlogger-android/     Sensor Logger, Android: a folder of CSVs, header time,seconds_elapsed,z,y,x,
                            `time` in ns since the Unix epoch; TotalAcceleration.csv (with gravity),
                            Accelerometer.csv (without) and Gravity.csv, Gyroscope.csv,
                            Magnetometer.csv, Location.csv, Metadata.csv
  sensorlogger-ios.zip      Sensor Logger, iOS, "Standardise Units & Frames" off: no
                            TotalAcceleration.csv; Accelerometer.csv and Gravity.csv with iOS's sign
                            (the negative of Android's), deflated zip
  phyphox.zip               phyphox "CSV (zip)" export: Accelerometer.csv ("Acceleration with g"),
                            Gyroscope.csv, Magnetometer.csv, Location.csv, meta/device.csv,
                            meta/time.csv; numbers as Java's 0.000000000E0; deflated
  phyphox-semicolon.zip     the same as "CSV (semicolon, decimal comma)", stored (no compression)

Time 0 of the simulated log is 2025-06-14T10:02:11Z, so a correct import gives back the
simulated times exactly. Heights: the log's are above the WGS84 ellipsoid, as Sensor Logger's
`altitude` is; phyphox's `Height (m)` and Sensor Logger iOS's `altitudeAboveMeanSeaLevel` are
above sea level, written as the log's minus EGM96's geoid height N, read bilinearly from PROJ's
/usr/share/proj/egm96_15.gtx (Debian's proj-data) as poiar reads it (docs/altitude.md), so a
correct import gives back the simulated heights. Deterministic; standard library only.
"""
import array
import math
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(os.path.dirname(HERE), 'Tests', 'Fixtures', 'phone')
EPOCH0 = 1749895331          # 2025-06-14T10:02:11Z
G = 9.81


def read_log(path):
    rows = {'gyro': [], 'accel': [], 'mag': [], 'gps': []}
    with open(path) as f:
        for line in f:
            if line.startswith('#') or line.startswith('time,'):
                continue
            p = line.rstrip('\n').split(',')
            if p[1] in rows:
                rows[p[1]].append((float(p[0]),) + tuple(float(v) if v else None for v in p[2:6]))
    return rows


def read_truth(path):
    """The truth's quaternions and its heading, pitch, roll (degrees), by time."""
    out, angles = {}, {}
    with open(path) as f:
        next(f)
        for line in f:
            p = line.split(',')
            out[round(float(p[0]), 6)] = tuple(float(v) for v in p[1:5])
            angles[round(float(p[0]), 6)] = tuple(float(v) for v in p[5:8])
    return out, angles


def read_declination(path):
    """The simulated log's `# sim_declination_deg:` (the WMM2025 declination it used)."""
    with open(path) as f:
        for line in f:
            if line.startswith('# sim_declination_deg:'):
                return float(line.split(':')[1])
    raise SystemExit(path + ': no sim_declination_deg')


def rot_t(q, v):
    """R(q)^T v: an ENU vector into the device frame."""
    w, x, y, z = q
    # R^T v = conj(q) v q
    w, x, y, z = w, -x, -y, -z
    tx = 2 * (y * v[2] - z * v[1])
    ty = 2 * (z * v[0] - x * v[2])
    tz = 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + y * tz - z * ty,
            v[1] + w * ty + z * tx - x * tz,
            v[2] + w * tz + x * ty - y * tx)


def qmul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def rz(deg):
    """The rotation by `deg` degrees about up (z), counter-clockwise seen from above."""
    h = math.radians(deg) / 2
    return (math.cos(h), 0.0, 0.0, math.sin(h))


def egm96(lat, lon, path='/usr/share/proj/egm96_15.gtx'):
    """N, the EGM96 geoid's height above the ellipsoid, m: bilinear in the GTX grid."""
    with open(path, 'rb') as f:
        data = f.read()
    south, west, dlat, dlon, rows, cols = struct.unpack('>4d2i', data[:40])
    h = array.array('f')
    h.frombytes(data[40:])
    if h.itemsize == 4 and struct.pack('=f', 1.0) != struct.pack('>f', 1.0):
        h.byteswap()
    y = (lat - south) / dlat
    x = ((lon - west) % 360) / dlon
    r = min(max(int(math.floor(y)), 0), rows - 2)
    fy = min(max(y - r, 0.0), 1.0)
    c = int(math.floor(x)) % cols
    fx = x - math.floor(x)
    c2 = (c + 1) % cols
    sw, se, nw, ne = h[r * cols + c], h[r * cols + c2], h[(r + 1) * cols + c], h[(r + 1) * cols + c2]
    s = sw + (se - sw) * fx
    n = nw + (ne - nw) * fx
    return s + (n - s) * fy


def ns(t):
    return EPOCH0 * 1_000_000_000 + int(round(t * 1e9))


def write(path, lines):
    with open(path, 'w', newline='') as f:
        f.write('\n'.join(lines) + '\n')


def sensorlogger(rows, truth, angles, ios, declination):
    files = {}
    sign = -1.0 if ios else 1.0

    def vec(name, samples):
        lines = ['time,seconds_elapsed,z,y,x']
        for t, x, y, z in samples:
            lines.append('%d,%.9f,%.9f,%.9f,%.9f' % (ns(t), t - 0.125, z, y, x))
        files[name] = lines

    vec('Gyroscope.csv', [r[:4] for r in rows['gyro']])
    # A repeated row, as phones sometimes write: the import must skip it.
    files['Gyroscope.csv'].insert(11, files['Gyroscope.csv'][10])
    total = [r[:4] for r in rows['accel']]
    grav, lin = [], []
    for t, x, y, z in total:
        g = rot_t(truth[round(t, 6)], (0.0, 0.0, G))
        grav.append((t, sign * g[0], sign * g[1], sign * g[2]))
        lin.append((t, sign * (x - g[0]), sign * (y - g[1]), sign * (z - g[2])))
    if not ios:
        vec('TotalAcceleration.csv', total)
    vec('Accelerometer.csv', lin)
    vec('Gravity.csv', grav)
    vec('Magnetometer.csv', [r[:4] for r in rows['mag']])
    loc = ['time,seconds_elapsed,bearingAccuracy,speedAccuracy,verticalAccuracy,horizontalAccuracy,speed,bearing,altitude,longitude,latitude']
    if ios:
        loc[0] += ',altitudeAboveMeanSeaLevel'
    for t, lat, lon, alt, acc in rows['gps']:
        line = '%d,%.9f,0,0.5,%.1f,%.3f,0,-1,%.3f,%.8f,%.8f' % (ns(t), t - 0.125, 1.5 * acc, acc, alt, lon, lat)
        if ios:
            line += ',%.3f' % (alt - egm96(lat, lon))
        loc.append(line)
    files['Location.csv'] = loc
    if ios:
        files['Metadata.csv'] = [
            'version,device name,recording epoch time,recording time,recording timezone,platform,appVersion,device id,sensors,sampleRateMs,standardisation,platform version',
            '3,iPhone 13,%d,2025-06-14_13-02-11,Europe/Helsinki,ios,1.59,ABCD-1234,Accelerometer|Gravity|Gyroscope|Magnetometer|Location,10|10|10|20|,false,18.5'
            % (EPOCH0 * 1000 + 125)]
    else:
        files['Metadata.csv'] = [
            'version,device name,recording epoch time,recording time,recording timezone,platform,appVersion,device id,sensors,sampleRateMs,standardisation,platform version',
            '3,Pixel 7,%d,2025-06-14_13-02-11,Europe/Helsinki,android,1.59,0123abcd,Accelerometer|Gravity|Gyroscope|Magnetometer|TotalAcceleration|Location,10|10|10|20|10|,true,14'
            % (EPOCH0 * 1000 + 125)]
    # The phone's own orientation at the gyro's times (Sensor Logger's COORDINATES.md): on
    # Android the rotation vector's quaternion, device -> ENU with magnetic north, so the
    # truth (true north) turned by the declination; on iOS CoreMotion's attitude in the
    # x-north-z-vertical frame with true north, so the truth turned back a quarter turn.
    # roll, pitch, yaw are the truth's angles in radians (poiar does not read them).
    orient = ['time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw']
    turn = rz(-90.0) if ios else rz(declination)
    for t, *_ in rows['gyro']:
        q = qmul(turn, truth[round(t, 6)])
        if q[0] < 0:
            q = tuple(-c for c in q)
        h, p, r = angles[round(t, 6)]
        orient.append('%d,%.9f,%.9f,%.9f,%.9f,%.9f,%.6f,%.6f,%.6f'
                      % (ns(t), t - 0.125, q[3], q[2], q[1], q[0], math.radians(r), math.radians(p), math.radians(h)))
    files['Orientation.csv'] = orient
    # A file the import ignores.
    files['Annotation.csv'] = ['time,seconds_elapsed,text,millisecond_press_duration']
    return files


def java_e(v):
    """Java DecimalFormat("0.000000000E0")."""
    if v == 0:
        return '0.000000000E0'
    e = int(math.floor(math.log10(abs(v))))
    m = v / 10 ** e
    if abs(round(m, 9)) >= 10:
        m /= 10
        e += 1
    return '%.9fE%d' % (m, e)


def phyphox(rows, sep=',', comma=False):
    shift = 0.25          # START's system time is 0.25 s after the whole second

    def num(v):
        s = java_e(v)
        return s.replace('.', ',') if comma else s

    def table(header, samples):
        lines = [sep.join('"%s"' % h for h in header)]
        for s in samples:
            lines.append(sep.join(num(v) if v is not None else 'NaN' for v in s))
        return lines

    files = {}
    files['Accelerometer.csv'] = table(['Time (s)', 'Acceleration x (m/s^2)', 'Acceleration y (m/s^2)', 'Acceleration z (m/s^2)',
                                        'Absolute acceleration (m/s^2)'],
                                       [(t - shift, x, y, z, math.sqrt(x * x + y * y + z * z)) for t, x, y, z, _ in rows['accel']])
    files['Gyroscope.csv'] = table(['Time (s)', 'Gyroscope x (rad/s)', 'Gyroscope y (rad/s)', 'Gyroscope z (rad/s)',
                                    'Absolute (rad/s)'],
                                   [(t - shift, x, y, z, math.sqrt(x * x + y * y + z * z)) for t, x, y, z, _ in rows['gyro']])
    files['Magnetometer.csv'] = table(['Time (s)', 'Magnetic field x (µT)', 'Magnetic field y (µT)', 'Magnetic field z (µT)',
                                       'Absolute field (µT)'],
                                      [(t - shift, x, y, z, math.sqrt(x * x + y * y + z * z)) for t, x, y, z, _ in rows['mag']])
    files['Location.csv'] = table(['Time (s)', 'Latitude (°)', 'Longitude (°)', 'Height (m)', 'Velocity (m/s)', 'Direction (°)',
                                   'Horizontal Accuracy (m)', 'Vertical Accuracy (m)'],
                                  [(t - shift, lat, lon, alt - egm96(lat, lon), 0.0, None, acc, 1.5 * acc)
                                   for t, lat, lon, alt, acc in rows['gps']])
    files['meta/device.csv'] = [sep.join(['"property"', '"value"'])] + [
        sep.join('"%s"' % v for v in kv) for kv in
        [('version', '1.2.0'), ('build', '1020009'), ('fileFormat', '1.19'), ('deviceModel', 'Pixel 7'),
         ('deviceBrand', 'google'), ('deviceBoard', 'panther'), ('deviceManufacturer', 'Google'),
         ('deviceBaseOS', ''), ('deviceCodename', 'REL'), ('deviceRelease', '14')]]
    system0 = EPOCH0 + shift
    files['meta/time.csv'] = [sep.join(['"event"', '"experiment time"', '"system time"', '"system time text"']),
                              sep.join(['"START"', num(0.0), ('%.3f' % system0).replace('.', ',' if comma else '.'),
                                        '"2025-06-14 13:02:11.250 UTC+03:00"']),
                              sep.join(['"PAUSE"', num(rows['gyro'][-1][0] - shift),
                                        ('%.3f' % (system0 + rows['gyro'][-1][0])).replace('.', ',' if comma else '.'),
                                        '"2025-06-14 13:02:15.250 UTC+03:00"'])]
    return files


def write_zip(path, files, method):
    with zipfile.ZipFile(path, 'w', compression=method) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(2025, 6, 14, 13, 2, 16))
            info.compress_type = method
            z.writestr(info, '\n'.join(files[name]) + '\n')


def main():
    rows = read_log(os.path.join(FIX, 'look-around.csv'))
    truth, angles = read_truth(os.path.join(FIX, 'look-around.truth.csv'))
    declination = read_declination(os.path.join(FIX, 'look-around.csv'))
    folder = os.path.join(FIX, 'sensorlogger-android')
    os.makedirs(folder, exist_ok=True)
    for name, lines in sensorlogger(rows, truth, angles, ios=False, declination=declination).items():
        write(os.path.join(folder, name), lines)
    write_zip(os.path.join(FIX, 'sensorlogger-ios.zip'), sensorlogger(rows, truth, angles, ios=True, declination=declination),
              zipfile.ZIP_DEFLATED)
    write_zip(os.path.join(FIX, 'phyphox.zip'), phyphox(rows), zipfile.ZIP_DEFLATED)
    write_zip(os.path.join(FIX, 'phyphox-semicolon.zip'), phyphox(rows, sep=';', comma=True), zipfile.ZIP_STORED)
    print('wrote', folder, 'and three zips in', FIX)


if __name__ == '__main__':
    main()
