#!/usr/bin/env bash
# Reading a phone export against reading the same data converted (issue: "Real phone
# recordings, first time right": at most 2x). For each export it converts the folder with
# `poiar convert`, then times `poiar pose FOLDER --out …` and `poiar pose LOG --out …`, best
# of RUNS runs each (wall clock, the whole process), and prints both and their ratio.
#   bash benchmarks/phone_read.sh [RUNS (default 7)] [EXPORT…]
# EXPORT defaults to the real Sensor Logger exports in ../shared/data/phones (when present).
# Uses the release build (.build/release/poiar; built when missing). Exits 1 when a ratio is
# over 2. Its files go to a temporary folder removed at the end.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
runs="${1:-7}"; shift || true
exports=("$@")
if (( ${#exports[@]} == 0 )); then
  for d in "$root/../shared/data/phones/android-drive-leaf" "$root/../shared/data/phones/android-orientation"; do
    [[ -d "$d" ]] && exports+=("$d")
  done
fi
if (( ${#exports[@]} == 0 )); then
  echo "phone_read: no exports given and ../shared/data/phones is absent" >&2; exit 2
fi
poiar="$root/.build/release/poiar"
[[ -x "$poiar" ]] || (cd "$root" && swift build -c release --product poiar >/dev/null)
work="$(mktemp -d "${TMPDIR:-/tmp}/poiar-phone-read.XXXXXX")"
trap 'rm -rf "$work"' EXIT

python3 - "$poiar" "$work" "$runs" "${exports[@]}" <<'PY'
import os, subprocess, sys, time
poiar, work, runs, exports = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]

def best(args):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return min(times)

worst = 0.0
for export in exports:
    name = os.path.basename(os.path.normpath(export))
    log = os.path.join(work, name + ".csv")
    subprocess.run([poiar, "convert", export, "--out", log], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = os.path.join(work, "pose.csv")
    folder = best([poiar, "pose", export, "--out", out])
    converted = best([poiar, "pose", log, "--out", out])
    ratio = folder / converted
    worst = max(worst, ratio)
    print(f"{name}: pose on the export {folder:.3f} s, on its conversion {converted:.3f} s: ratio {ratio:.2f} "
          f"(best of {runs}; {os.path.getsize(log) / 1e6:.1f} MB converted)")
print(f"worst ratio {worst:.2f} (target at most 2: {'met' if worst <= 2 else 'MISSED'})")
sys.exit(0 if worst <= 2 else 1)
PY
