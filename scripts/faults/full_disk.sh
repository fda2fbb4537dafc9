#!/usr/bin/env bash
# Full-disk test (docs/robustness.md): mounts a small tmpfs (needs root) and lets replay,
# pose, pois import, convert and simulate run out of space in it. Each must exit 1 with a
# one-line error naming the file, and leave no partial file: no temporary file, no
# truncated PNG, no manifest, no pose CSV, no empty database it created. (A replay keeps the
# whole frames it wrote and its render journal, for --resume.)
#   sudo bash scripts/faults/full_disk.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
poiar="$PWD/.build/release/poiar"
[[ -x "$poiar" ]] || swift build -c release >/dev/null
mnt="$(mktemp -d)"
mount -t tmpfs -o size=3m tmpfs "$mnt" || { echo "cannot mount a tmpfs (run as root)"; exit 2; }
trap 'umount "$mnt"; rmdir "$mnt"' EXIT
failures=0
expect_full() {  # NAME COMMAND...: exit 1 and a one-line error naming $mnt
  local name="$1"; shift
  "$@" > /dev/null 2> "$mnt/../stderr.$$" ; local status=$?
  local err; err=$(grep '^poiar: error:' "$mnt/../stderr.$$"); rm -f "$mnt/../stderr.$$"
  local partial; partial=$(find "$mnt" \( -name '*.tmp' -o -name '.*.tmp' -o -name 'frames.jsonl' -o -name 'poses.csv' \
                           -o -name 'log.csv' -o -name 'db.sqlite' \) -print)
  if [[ $status == 1 && "$err" == *"$mnt"* && -z "$partial" ]]; then
    echo "ok   $name: $err"
  else
    echo "FAIL $name: exit $status; error: ${err:-none}; partial files: ${partial:-none}"; failures=$((failures + 1))
  fi
}
fill() { rm -rf "${mnt:?}"/*; dd if=/dev/zero of="$mnt/fill" bs=1k count="$1" 2>/dev/null; }

fill 0;    expect_full "replay (frames)" "$poiar" replay SampleLogs/walk.csv --filter cafe --out "$mnt/out" --progress-interval 0
python3 - "$mnt/out" <<'PY' || failures=$((failures + 1))
import os, struct, sys, zlib
d = sys.argv[1]
for n in sorted(os.listdir(d)):
    if n.endswith(".png"):
        b = open(os.path.join(d, n), "rb").read()
        assert b.startswith(b"\x89PNG") and b[-12:-8] == b"\x00\x00\x00\x00" and b[-8:-4] == b"IEND", f"{n} is truncated"
print(f"ok   replay kept {sum(n.endswith('.png') for n in os.listdir(d))} whole frames, none truncated")
PY
fill 2950; expect_full "pose" "$poiar" pose SampleLogs/walk.csv --out "$mnt/poses.csv"
fill 2990; expect_full "pois import" "$poiar" pois import SampleLogs/helsinki-esplanadi.osm --db "$mnt/db.sqlite"
fill 3060; expect_full "convert" "$poiar" convert Tests/Fixtures/phone/sensorlogger-ios.zip --out "$mnt/log.csv"
fill 2950; expect_full "simulate" "$poiar" simulate --script walking --waypoints "60.1678863,24.9493217;60.1677651,24.9447805" --out "$mnt/log.csv"
echo "$failures failure(s)"
exit $((failures > 0))
