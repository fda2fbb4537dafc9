#!/usr/bin/env bash
# Kill test (docs/robustness.md): a replay of the sample walk is killed with SIGKILL at N
# random points (default 20), each time restarted with --resume; then it runs to the end.
# Checks, after every kill, that no frame PNG in the output is truncated or corrupt (every
# chunk's CRC, IEND last), and at the end that the output is byte for byte the output of an
# unbroken run (every frame, frames.jsonl) with no temporary file left.
#   bash scripts/faults/kill_resume.sh [KILLS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
kills="${1:-20}"
seed="${2:-1}"
poiar=.build/release/poiar
[[ -x "$poiar" ]] || swift build -c release >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
args=(SampleLogs/walk.csv --filter cafe --jobs 2 --progress-interval 0)

start=$(date +%s.%N)
"$poiar" replay "${args[@]}" --out "$work/unbroken" 2> "$work/unbroken.log"
full=$(python3 -c "print($(date +%s.%N) - $start)")
echo "unbroken run: $(printf %.1f "$full") s, $(ls "$work/unbroken" | grep -c '^frame_') frames"

check_pngs() {  # every frame_*.png in $1 is a whole PNG
  python3 - "$1" <<'PY'
import sys, os, struct, zlib
bad = []
for name in sorted(os.listdir(sys.argv[1])):
    if not (name.startswith("frame_") and name.endswith(".png")):
        continue
    data = open(os.path.join(sys.argv[1], name), "rb").read()
    ok = data.startswith(b"\x89PNG\r\n\x1a\n")
    pos, last = 8, b""
    while ok and pos + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = data[pos + 8 + length:pos + 12 + length]
        if len(body) != length or len(crc) != 4 or zlib.crc32(kind + body) != struct.unpack(">I", crc)[0]:
            ok = False
        pos, last = pos + 12 + length, kind
    if not ok or last != b"IEND" or pos != len(data):
        bad.append(name)
print(" ".join(bad))
sys.exit(1 if bad else 0)
PY
}

RANDOM=$seed
for k in $(seq "$kills"); do
  # A random point in the first 90 % of an unbroken run's time (fusion, rendering, manifest).
  delay=$(python3 -c "import random; random.seed($seed * 1000 + $k); print(round(random.uniform(0.3, 0.9 * $full), 2))")
  "$poiar" replay "${args[@]}" --resume --out "$work/killed" 2>> "$work/killed.log" &
  pid=$!
  sleep "$delay"
  if kill -9 "$pid" 2>/dev/null; then state="killed"; else state="had finished"; fi
  wait "$pid" 2>/dev/null || true
  frames=$(ls "$work/killed" 2>/dev/null | grep -c '^frame_' || true)
  if ! bad=$(check_pngs "$work/killed"); then echo "kill $k: truncated or corrupt PNG: $bad"; exit 1; fi
  echo "kill $k after $delay s: $state; $frames frame files, all whole"
done
"$poiar" replay "${args[@]}" --resume --out "$work/killed" 2> "$work/final.log"
grep -E "^poiar: wrote" "$work/final.log" || true
if diff -r "$work/unbroken" "$work/killed" > "$work/diff.txt"; then
  hidden=$(find "$work/killed" -name '.*' | wc -l)
  [[ "$hidden" == 0 ]] || { echo "temporary files left: $(find "$work/killed" -name '.*')"; exit 1; }
  echo "after $kills kills and a last --resume: output identical to the unbroken run ($(ls "$work/killed" | wc -l) files), no temporary file left"
else
  echo "output differs from the unbroken run:"; head "$work/diff.txt"; exit 1
fi
