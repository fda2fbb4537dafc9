#!/usr/bin/env bash
# Reading a phone export against reading the same data converted (issue: "Real phone
# recordings, first time right": at most 2x). For each export it converts the folder with
# `poiar convert`, then times `poiar pose FOLDER --out …` and `poiar pose LOG --out …`, best
# of RUNS runs each (wall clock, the whole process; the two alternate, so that a busy machine
# slows both alike), and prints both and their ratio, and the same for CPU time (user + system).
#   bash benchmarks/phone_read.sh [RUNS (default 15)] [EXPORT…]
# EXPORT defaults to the real Sensor Logger exports in ../shared/data/phones (when present).
# Uses the release build (.build/release/poiar; built when missing). Exits 1 when a ratio is
# over 2. Its files go to a temporary folder removed at the end.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
runs="${1:-15}"; shift || true
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
import os, resource, subprocess, sys, time
poiar, work, runs, exports = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]

def best_pair(a, b):
    """Best wall and CPU times of the commands a and b, run alternately."""
    wall, cpu = [[], []], [[], []]
    for _ in range(runs):
        for k, args in enumerate((a, b)):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall[k].append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[k].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return [min(w) for w in wall], [min(c) for c in cpu]

worst = 0.0
for export in exports:
    name = os.path.basename(os.path.normpath(export))
    log = os.path.join(work, name + ".csv")
    subprocess.run([poiar, "convert", export, "--out", log], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = os.path.join(work, "pose.csv")
    (folder, converted), (folder_cpu, converted_cpu) = best_pair([poiar, "pose", export, "--out", out], [poiar, "pose", log, "--out", out])
    ratio = folder / converted
    worst = max(worst, ratio)
    print(f"{name}: pose on the export {folder:.3f} s, on its conversion {converted:.3f} s: ratio {ratio:.2f}; "
          f"CPU {folder_cpu:.3f} s / {converted_cpu:.3f} s: {folder_cpu / converted_cpu:.2f} "
          f"(best of {runs}; {os.path.getsize(log) / 1e6:.1f} MB converted)")
print(f"worst ratio {worst:.2f} (target at most 2: {'met' if worst <= 2 else 'MISSED'})")
sys.exit(0 if worst <= 2 else 1)
PY
