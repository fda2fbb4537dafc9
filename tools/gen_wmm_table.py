#!/usr/bin/env python3
"""Regenerates Sources/Geodesy/WMM2025Coefficients.swift from ../shared/data/wmm/WMM2025.COF."""
import pathlib, sys
root = pathlib.Path(__file__).resolve().parent.parent
cof = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root.parent / "shared/data/wmm/WMM2025.COF"
rows = [l.split() for l in cof.read_text().splitlines()[1:] if len(l.split()) == 6]
out = ["// Generated from ../shared/data/wmm/WMM2025.COF (NOAA/NCEI and BGS, public domain) by",
       "// tools/gen_wmm_table.py. (n, m, g, h, gdot, hdot): Gauss coefficients in nT at epoch 2025.0",
       "// and their secular variation in nT/year, Schmidt semi-normalised. Tests check it against the file.",
       "extension WorldMagneticModel {",
       "    static let wmm2025Coefficients: [(Int, Int, Double, Double, Double, Double)] = ["]
out += ["        (%s, %s, %s, %s, %s, %s)," % tuple(p) for p in rows]
out += ["    ]", "}"]
(root / "Sources/Geodesy/WMM2025Coefficients.swift").write_text("\n".join(out) + "\n")
