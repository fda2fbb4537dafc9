#!/usr/bin/env python3
"""make_camera_video_fixture.py - a Sensor Logger camera video, for poiar's footage tests.

Sensor Logger's Camera sensor in video mode writes `Camera/<epoch ms>.mp4` and, in the same
MP4, a QuickTime timed metadata track (handler `meta`, sample entry `mebx`) with one sample per
video frame holding that frame's capture time as nanoseconds since the Unix epoch on the
clock of the sensor CSVs (awesome-sensor-logger, VIDEO_SYNCHRONIZATION.md). Its file name is
the session's start, several hundred milliseconds before the video's first frame.

This writes Tests/Fixtures/phone/sensorlogger-video/Camera/1749895331000.mp4: the first 45
frames (1.5 s) of SampleLogs/gopro-walk.mp4 copied without re-encoding (PyAV, the video track
only), plus such a metadata track: key `mdta` "sensor_logger.epoch_timestamp", well-known type
74 (big-endian signed 64-bit integer), one 16-byte sample per frame at the frame's time. The
first frame is captured at 2025-06-14T10:02:11.700Z (1749895331700000000 ns), 0.7 s after the
file name's time, as the docs describe; the CSVs of the export are those of
sensorlogger-android (time 0 = 1749895331 s).

Needs PyAV (`pip install av`); otherwise standard library only. The boxes follow Apple's
QuickTime File Format, "Timed Metadata Media".
"""
import os
import shutil
import struct

import av

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRST_FRAME_NS = 1749895331700000000
FRAMES = 45


def box(kind, payload):
    return struct.pack('>I4s', 8 + len(payload), kind) + payload


def full(kind, version, flags, payload):
    return box(kind, struct.pack('>I', (version << 24) | flags) + payload)


def children(data):
    out, o = [], 0
    while o < len(data):
        size, kind = struct.unpack('>I4s', data[o:o + 8])
        out.append((kind, data[o + 8:o + size]))
        o += size
    return out


def copy_video(src, dst):
    with av.open(src) as inp, av.open(dst, 'w', format='mp4') as out:
        vin = inp.streams.video[0]
        vout = out.add_stream_from_template(vin)
        n = 0
        for packet in inp.demux(vin):
            if packet.dts is None:
                continue
            if n >= FRAMES:
                break
            packet.stream = vout
            out.mux(packet)
            n += 1


def metadata_trak(track_id, timescale, durations, chunk_offset):
    count = len(durations)
    total = sum(durations)
    tkhd = full(b'tkhd', 0, 0, struct.pack('>IIIII', 0, 0, track_id, 0, total) + b'\0' * 8
                + struct.pack('>hhhh', 0, 0, 0, 0) + struct.pack('>9I', 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
                + struct.pack('>II', 0, 0))
    mdhd = full(b'mdhd', 0, 0, struct.pack('>IIIIHH', 0, 0, timescale, total, 0x55C4, 0))
    hdlr = full(b'hdlr', 0, 0, struct.pack('>I4s', 0, b'meta') + b'\0' * 12 + b'Sensor Logger timestamps\0')
    key = box(struct.pack('>I', 1),
              box(b'keyd', b'mdta' + b'sensor_logger.epoch_timestamp') + box(b'dtyp', struct.pack('>II', 0, 74)))
    keys = full(b'keys', 0, 0, key)
    mebx = box(b'mebx', b'\0' * 6 + struct.pack('>H', 1) + keys)
    stsd = full(b'stsd', 0, 0, struct.pack('>I', 1) + mebx)
    runs = []
    for d in durations:
        if runs and runs[-1][1] == d:
            runs[-1][0] += 1
        else:
            runs.append([1, d])
    stts = full(b'stts', 0, 0, struct.pack('>I', len(runs)) + b''.join(struct.pack('>II', c, d) for c, d in runs))
    stsc = full(b'stsc', 0, 0, struct.pack('>IIII', 1, 1, count, 1))
    stsz = full(b'stsz', 0, 0, struct.pack('>II', 16, count))
    stco = full(b'stco', 0, 0, struct.pack('>II', 1, chunk_offset))
    stbl = box(b'stbl', stsd + stts + stsc + stsz + stco)
    dinf = box(b'dinf', full(b'dref', 0, 0, struct.pack('>I', 1) + full(b'url ', 0, 1, b'')))
    minf = box(b'minf', full(b'nmhd', 0, 0, b'') + dinf + stbl)
    mdia = box(b'mdia', mdhd + hdlr + minf)
    return box(b'trak', tkhd + mdia)


def video_timing(moov):
    """The video track's timescale and per-sample durations (stts)."""
    for kind, trak in children(moov):
        if kind != b'trak':
            continue
        mdia = dict(children(trak))[b'mdia']
        parts = dict(children(mdia))
        if parts[b'hdlr'][8:12] != b'vide':
            continue
        version = parts[b'mdhd'][0]
        timescale = struct.unpack('>I', parts[b'mdhd'][12:16] if version == 0 else parts[b'mdhd'][20:24])[0]
        stbl = dict(children(dict(children(parts[b'minf']))[b'stbl']))
        stts = stbl[b'stts']
        n = struct.unpack('>I', stts[4:8])[0]
        durations = []
        for i in range(n):
            c, d = struct.unpack('>II', stts[8 + 8 * i:16 + 8 * i])
            durations += [d] * c
        return timescale, durations
    raise SystemExit('no video track')


def main():
    out_dir = os.path.join(ROOT, 'Tests', 'Fixtures', 'phone', 'sensorlogger-video')
    if os.path.exists(out_dir):
        shutil.rmtree(out_dir)
    shutil.copytree(os.path.join(ROOT, 'Tests', 'Fixtures', 'phone', 'sensorlogger-android'), out_dir)
    os.makedirs(os.path.join(out_dir, 'Camera'))
    target = os.path.join(out_dir, 'Camera', '1749895331000.mp4')
    tmp = target + '.video.mp4'
    copy_video(os.path.join(ROOT, 'SampleLogs', 'gopro-walk.mp4'), tmp)
    data = open(tmp, 'rb').read()
    os.remove(tmp)
    top = []
    o = 0
    while o < len(data):
        size, kind = struct.unpack('>I4s', data[o:o + 8])
        top.append((kind, data[o:o + size]))
        o += size
    moov = next(b for k, b in top if k == b'moov')[8:]
    timescale, durations = video_timing(moov)
    # Capture times: the first frame's, then the frames' own spacing.
    times, t = [], 0
    for d in durations:
        times.append(FIRST_FRAME_NS + round(t * 1e9 / timescale))
        t += d
    samples = b''.join(struct.pack('>II', 16, 1) + struct.pack('>q', ns) for ns in times)
    # New file: everything before moov unchanged (chunk offsets stay valid), then a new mdat
    # with the metadata samples, then moov with the new track.
    before = b''.join(b for k, b in top if k != b'moov')
    meta_offset = len(before) + 8
    mdat = box(b'mdat', samples)
    parts = children(moov)
    next_id = 1 + sum(1 for k, _ in parts if k == b'trak')
    rebuilt = b''
    for kind, payload in parts:
        if kind == b'mvhd':
            version = payload[0]
            at = 96 if version == 0 else 108
            payload = payload[:at] + struct.pack('>I', next_id + 1) + payload[at + 4:]
        rebuilt += box(kind, payload)
    rebuilt += metadata_trak(next_id, timescale, durations, meta_offset)
    with open(target, 'wb') as f:
        f.write(before + mdat + box(b'moov', rebuilt))
    print('wrote', target, len(times), 'frames')


if __name__ == '__main__':
    main()
