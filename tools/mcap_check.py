#!/usr/bin/env python3
"""Reads a poiar MCAP file with Foxglove's reference reader (the `mcap` package from PyPI) and
prints what it holds as one JSON object, for the tests (MCAPCLITests) and for people:

    python tools/mcap_check.py FILE.mcap [--frames frames.jsonl]

It reads the file twice: through the summary (seeking, CRCs validated, messages in log-time
order) and straight through from the start (the order in the file), and for every channel
gives the schema, the message count, whether log times never go back, and the first message.
Every message's JSON is decoded; images are checked to be the PNG or JPEG they say. With
--frames, the image and annotation messages are checked against the frames of frames.jsonl
(one each per frame, at the frame's time). Exits 1 with the problems listed when anything is
wrong.
"""
import base64
import json
import sys

from mcap.reader import make_reader, NonSeekingReader


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    path = args[0]
    frames_path = args[args.index("--frames") + 1] if "--frames" in args else None
    problems = []
    channels = {}

    with open(path, "rb") as f:
        reader = make_reader(f, validate_crcs=True)
        summary = reader.get_summary()
        if summary is None:
            problems.append("no summary section")
        header = reader.get_header()
        stats = summary.statistics if summary else None
        for schema, channel, message in reader.iter_messages(log_time_order=True):
            c = channels.setdefault(channel.topic, {
                "schema": schema.name if schema else None, "schema_encoding": schema.encoding if schema else None,
                "message_encoding": channel.message_encoding, "metadata": dict(channel.metadata),
                "count": 0, "times": [], "first": None})
            c["count"] += 1
            c["times"].append(message.log_time)
            try:
                decoded = json.loads(message.data)
            except ValueError as e:
                problems.append(f"{channel.topic} message {c['count']}: not JSON: {e}")
                continue
            if c["first"] is None:
                c["first"] = decoded if schema.name != "foxglove.CompressedImage" else {
                    k: (v if k != "data" else f"<{len(v)} base64 chars>") for k, v in decoded.items()}
            check_message(schema.name, channel.topic, decoded, message.log_time, problems)
        metadata = [{"name": m.name, "metadata": dict(m.metadata)} for m in reader.iter_metadata()]

    # Straight through, without the summary: the order in the file.
    file_order = {}
    every_time = []
    with open(path, "rb") as f:
        for schema, channel, message in NonSeekingReader(f, validate_crcs=True).iter_messages():
            file_order.setdefault(channel.topic, []).append(message.log_time)
            every_time.append(message.log_time)

    out = {"profile": header.profile, "library": header.library, "metadata": metadata,
           "message_count": stats.message_count if stats else None,
           "chunk_count": stats.chunk_count if stats else None,
           "chunk_indexes": len(summary.chunk_indexes) if summary else 0,
           "file_order_non_decreasing": all(a <= b for a, b in zip(every_time, every_time[1:])),
           "channels": {}}
    for topic, c in channels.items():
        times = c.pop("times")
        in_file = file_order.get(topic, [])
        c["non_decreasing"] = all(a <= b for a, b in zip(times, times[1:])) and all(a <= b for a, b in zip(in_file, in_file[1:]))
        c["file_order_count"] = len(in_file)
        c["first_time"] = times[0]
        c["last_time"] = times[-1]
        if not c["non_decreasing"]:
            problems.append(f"{topic}: log times go back")
        if c["file_order_count"] != c["count"]:
            problems.append(f"{topic}: {c['count']} messages through the summary, {c['file_order_count']} straight through")
        out["channels"][topic] = c
    if stats and stats.message_count != sum(c["count"] for c in channels.values()):
        problems.append(f"statistics say {stats.message_count} messages, the file has {sum(c['count'] for c in channels.values())}")

    if frames_path:
        frames = [json.loads(line) for line in open(frames_path) if line.strip()]
        out["frames"] = len(frames)
        for topic in ("/camera/image", "/camera/annotations"):
            n = channels.get(topic, {}).get("count", 0)
            if n != len(frames):
                problems.append(f"{topic}: {n} messages for {len(frames)} frames")

    out["problems"] = problems
    print(json.dumps(out, indent=1, ensure_ascii=False))
    sys.exit(1 if problems else 0)


def check_message(schema, topic, m, log_time, problems):
    def need(*keys):
        for k in keys:
            if k not in m:
                problems.append(f"{topic}: message without {k}")
    if "timestamp" in m:
        t = m["timestamp"]
        if t["sec"] * 1_000_000_000 + t["nsec"] != log_time:
            problems.append(f"{topic}: timestamp {t} is not the log time {log_time}")
    if schema == "foxglove.PoseInFrame":
        need("timestamp", "frame_id", "pose")
        q = m["pose"]["orientation"]
        norm = (q["x"] ** 2 + q["y"] ** 2 + q["z"] ** 2 + q["w"] ** 2) ** 0.5
        if abs(norm - 1) > 1e-6:
            problems.append(f"{topic}: orientation of norm {norm}")
    elif schema == "foxglove.LocationFix":
        need("timestamp", "latitude", "longitude", "altitude", "position_covariance", "position_covariance_type")
        if len(m["position_covariance"]) != 9:
            problems.append(f"{topic}: covariance of {len(m['position_covariance'])} numbers")
    elif schema == "foxglove.CompressedImage":
        need("timestamp", "frame_id", "format", "data")
        data = base64.b64decode(m["data"])
        magic = {"png": b"\x89PNG\r\n\x1a\n", "jpeg": b"\xff\xd8\xff"}.get(m["format"])
        if magic is None or not data.startswith(magic):
            problems.append(f"{topic}: data is not {m['format']}")
    elif schema == "foxglove.ImageAnnotations":
        need("circles", "points", "texts")
    elif schema == "poiar.SensorSample":
        need("timestamp", "sensor", "x", "y", "z")


if __name__ == "__main__":
    main()
