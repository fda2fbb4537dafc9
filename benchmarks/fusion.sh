#!/usr/bin/env bash
# The fusion benchmark in one run (docs/fusion-performance.md):
#   1. accuracy on the BROAD trials: poiar pose offline (the default) and --causal, then
#      pose_eval.py's reference filters (VQF, VQF offline, Madgwick, Mahony) with poiar
#      offline beside them; heading and inclination RMSE per trial and mean;
#   2. the filter's own throughput: `poiar pose LOG --bench-filter N` (the log in memory);
#   3. `poiar pose` end to end, offline against pose_eval.py's offline VQF pipeline and --causal
#      against its online VQF pipeline, on the same file.
#   4. with --instructions, the instructions `poiar pose` runs, offline and --causal (valgrind's
#      callgrind on a copy without debug info, which valgrind 3.19 cannot read): the measure
#      that does not depend on what else the machine runs.
#   benchmarks/fusion.sh [--dir DIR] [--log LOG] [--passes N] [--runs N] [--no-table] [--instructions]
# Needs a release build (swift build -c release --product poiar), python3 with numpy, and the
# Python package vqf (pip install vqf) for the VQF columns.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="$here/../shared/data/broad"
poiar="$here/.build/release/poiar"
eval_py="${POSE_EVAL:-$here/../shared/tools/pose_eval.py}"
log=""
passes=50
runs=5
table=1
instructions=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2;;
    --log) log="$2"; shift 2;;
    --passes) passes="$2"; shift 2;;
    --runs) runs="$2"; shift 2;;
    --no-table) table=0; shift;;
    --instructions) instructions=1; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
[ -x "$poiar" ] || { echo "no $poiar: run swift build -c release --product poiar" >&2; exit 1; }
[ -n "$log" ] || log="$dir/02_undisturbed_slow_rotation_B.csv.gz"

if [ "$table" = 1 ]; then
  echo "## Accuracy on $(basename "$dir") (RMSE in degrees over movement samples)"
  echo
  bash "$here/benchmarks/broad_table.sh" --dir "$dir" --poiar "$poiar"
  echo
  python3 "$eval_py" table --dir "$dir" --methods vqf,vqf-offline,madgwick,mahony \
    --poses-cmd "$poiar pose {log} --out {out}"
  echo
fi

echo "## Throughput of the filter alone ($(basename "$log"), in memory, best of $passes passes, one core)"
echo
echo '```'
"$poiar" pose "$log" --bench-filter "$passes" 2>&1 | grep 'filter:' | sed 's/^poiar: //'
echo '```'
echo

echo "## End to end on $(basename "$log") (best of $runs runs, wall clock)"
echo
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
best() {  # best wall time in seconds of "$@" over $runs runs
  local b=""
  for _ in $(seq "$runs"); do
    local s e t
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    t=$(python3 -c "print($e-$s)")
    b=$(python3 -c "print(min($t, ${b:-1e9}))")
  done
  echo "$b"
}
tp=$(best "$poiar" pose "$log" --out "$tmp/poiar.csv")
tc=$(best "$poiar" pose "$log" --causal --out "$tmp/poiar-causal.csv")
tv=$(best python3 "$eval_py" baseline --log "$log" --method vqf --out "$tmp/vqf.csv")
tvo=$(best python3 "$eval_py" baseline --log "$log" --method vqf-offline --out "$tmp/vqf-offline.csv")
python3 - "$tp" "$tc" "$tv" "$tvo" <<'PY'
import sys
tp, tc, tv, tvo = (float(a) for a in sys.argv[1:5])
print('| pipeline | wall time (s) |')
print('|---|---:|')
print('| `poiar pose LOG --out P.csv` (offline) | %.3f |' % tp)
print('| `poiar pose LOG --causal --out P.csv` | %.3f |' % tc)
print('| `pose_eval.py baseline --method vqf-offline --log LOG --out P.csv` | %.3f |' % tvo)
print('| `pose_eval.py baseline --method vqf --log LOG --out P.csv` | %.3f |' % tv)
print()
# like against like: the offline pass against offline VQF, the causal filter against online VQF
for name, t, ref, tr in (('poiar pose (offline)', tp, 'offline VQF', tvo), ('poiar pose --causal', tc, 'online VQF', tv)):
    print('%s is %.2fx %s than the %s pipeline' % (((name, tr / t, 'faster') if t <= tr else (name, t / tr, 'slower')) + (ref,)))
PY

if [ "$instructions" = 1 ]; then
  echo
  echo "## Instructions (callgrind, $(basename "$log"))"
  echo
  strip --strip-debug -o "$tmp/poiar" "$poiar"
  for mode in offline causal; do
    flag=""; [ "$mode" = causal ] && flag=--causal
    n=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" "$tmp/poiar" pose "$log" $flag --out "$tmp/p.csv" 2>&1 \
        | sed -n 's/.*Collected : *//p')
    printf "poiar pose (%s): %.3f G instructions\n" "$mode" "$(python3 -c "print($n / 1e9)")"
  done
fi
