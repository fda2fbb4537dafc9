#!/usr/bin/env python3
"""make_camera_fixture.py - a Sensor Logger export with camera stills, for poiar's footage tests.

Writes Tests/Fixtures/phone/sensorlogger-camera.zip: the CSV files of
Tests/Fixtures/phone/sensorlogger-android/ (made by make_phone_fixtures.py; time 0 is
2025-06-14T10:02:11Z = 1749895331 s) and a `Camera/` folder of two stills named by their
capture time in milliseconds since the Unix epoch, as Sensor Logger names the images of its
Camera sensor (`Camera/<epoch ms>.jpg`), at 1.5 s and 3.25 s into the recording. The stills
are Tests/Fixtures/stills/lund-01.jpg (OpenSfM sample data, (c) Mapillary, BSD-2-Clause).
Deterministic (fixed zip timestamps); standard library only.
"""
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(os.path.dirname(HERE), 'Tests', 'Fixtures')
EPOCH0_MS = 1749895331000
STILLS_AT_MS = [1500, 3250]


def main():
    src = os.path.join(FIX, 'phone', 'sensorlogger-android')
    out = os.path.join(FIX, 'phone', 'sensorlogger-camera.zip')
    still = open(os.path.join(FIX, 'stills', 'lund-01.jpg'), 'rb').read()
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
        for name in sorted(os.listdir(src)):
            info = zipfile.ZipInfo(name, date_time=(2025, 6, 14, 13, 2, 16))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, open(os.path.join(src, name), 'rb').read())
        for ms in STILLS_AT_MS:
            info = zipfile.ZipInfo('Camera/%d.jpg' % (EPOCH0_MS + ms), date_time=(2025, 6, 14, 13, 2, 16))
            info.compress_type = zipfile.ZIP_STORED
            z.writestr(info, still)
    print('wrote', out)


if __name__ == '__main__':
    main()
