#!/usr/bin/env python3
"""Cuts the BROAD excerpt the fusion tests score into Tests/Fixtures/broad/.

From ../shared/data/broad/24_disturbed_tapping_A (.csv.gz and .truth.csv.gz): the rows with
25 <= time < 85 s (20 s of rest, then 40 s of rotations while the board is tapped), times
unchanged, metadata lines kept with a note added. BROAD: D. Laidig, M. Caruso, A. Cereatti,
T. Seel, "BROAD - A Benchmark for Robust Inertial Orientation Estimation", Data 6(7):72,
2021, https://doi.org/10.3390/data6070072; CC-BY-4.0. Modified: cut to an excerpt.
"""
import gzip, pathlib
root = pathlib.Path(__file__).resolve().parent.parent
src = root.parent / "shared/data/broad"
out = root / "Tests/Fixtures/broad"
out.mkdir(parents=True, exist_ok=True)
trial, t0, t1 = "24_disturbed_tapping_A", 25.0, 85.0
note = "# excerpt: rows with %g <= time < %g s of the BROAD trial (tools/make_broad_fixture.py), CC-BY-4.0\n" % (t0, t1)

def cut(name, metadata_note):
    lines_out, header_seen = [], False
    with gzip.open(src / name, "rt", encoding="utf-8") as f:
        for line in f:
            if not header_seen:
                if line.startswith("#"):
                    lines_out.append(line)
                    continue
                if metadata_note:
                    lines_out.append(note)
                lines_out.append(line)
                header_seen = True
                continue
            t = float(line.split(",", 1)[0])
            if t0 <= t < t1:
                lines_out.append(line)
    with gzip.GzipFile(out / name, "wb", compresslevel=9, mtime=0) as g:
        g.write("".join(lines_out).encode("utf-8"))
    return len(lines_out)

print(cut(trial + ".csv.gz", True), "log lines;", cut(trial + ".truth.csv.gz", False), "truth lines")
