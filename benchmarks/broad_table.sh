#!/usr/bin/env bash
# Scores `poiar pose` on every BROAD trial in a folder (default ../shared/data/broad) and prints
# a Markdown table: per-trial and mean heading / inclination RMSE (degrees, movement samples),
# offline (the default) and causal (`--causal`) side by side.
#   benchmarks/broad_table.sh [--dir DIR] [--poiar BIN] [--references] [--keep DIR] [-- extra pose args]
# --references also runs pose_eval.py's reference filters (vqf, vqf-offline, madgwick, mahony)
# through `pose_eval.py table`, with poiar (offline) as one more column. Extra pose arguments
# (e.g. `-- --param offlineTauMag=10`) go to both runs.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="$here/../shared/data/broad"
poiar="$here/.build/release/poiar"
eval_py="${POSE_EVAL:-$here/../shared/tools/pose_eval.py}"
references=0
keep=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2;;
    --poiar) poiar="$2"; shift 2;;
    --references) references=1; shift;;
    --keep) keep="$2"; shift 2;;
    --) shift; extra=("$@"); break;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
[ -x "$poiar" ] || { echo "no $poiar: run swift build -c release --product poiar" >&2; exit 1; }
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"

score() {  # heading and inclination RMSE of a pose file against a truth
  python3 "$eval_py" score --truth "$1" --poses "$2" --json \
    | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["heading_rmse_deg"], r["inclination_rmse_deg"])'
}

echo "| trial | offline heading | offline incl. | causal heading | causal incl. |"
echo "|---|---:|---:|---:|---:|"
sums="0 0 0 0"; n=0
for log in "$dir"/*.csv.gz; do
  case "$log" in *.truth.csv.gz) continue;; esac
  stem="$(basename "$log" .csv.gz)"
  truth="$dir/$stem.truth.csv.gz"
  [ -f "$truth" ] || continue
  "$poiar" pose "$log" --out "$work/$stem.poses.csv" "${extra[@]}" 2>/dev/null
  "$poiar" pose "$log" --causal --out "$work/$stem.causal.poses.csv" "${extra[@]}" 2>/dev/null
  read -r h i < <(score "$truth" "$work/$stem.poses.csv")
  read -r ch ci < <(score "$truth" "$work/$stem.causal.poses.csv")
  printf '| %s | %.2f | %.2f | %.2f | %.2f |\n' "$stem" "$h" "$i" "$ch" "$ci"
  sums=$(python3 -c "a=[float(x) for x in '$sums'.split()]; b=[$h,$i,$ch,$ci]; print(' '.join(str(x+y) for x,y in zip(a,b)))")
  n=$((n+1))
done
python3 -c "s=[float(x)/$n for x in '$sums'.split()]; print('| **mean** | **%.2f** | **%.2f** | **%.2f** | **%.2f** |' % tuple(s))"
[ -n "$keep" ] || rm -rf "$work"

if [ "$references" = 1 ]; then
  echo
  python3 "$eval_py" table --dir "$dir" --poses-cmd "$poiar pose {log} --out {out}"
fi
