#!/usr/bin/env bash
# Scores `poiar pose` on every BROAD trial in a folder (default ../shared/data/broad) and prints
# a Markdown table: per-trial and mean heading / inclination RMSE (degrees, movement samples).
#   benchmarks/broad_table.sh [--dir DIR] [--poiar BIN] [--references] [--keep DIR] [-- extra pose args]
# --references also runs pose_eval.py's reference filters (vqf, vqf-offline, madgwick, mahony)
# through `pose_eval.py table`, with poiar as one more column.
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

echo "| trial | heading | incl. |"
echo "|---|---:|---:|"
sumh=0; sumi=0; n=0
for log in "$dir"/*.csv.gz; do
  case "$log" in *.truth.csv.gz) continue;; esac
  stem="$(basename "$log" .csv.gz)"
  truth="$dir/$stem.truth.csv.gz"
  [ -f "$truth" ] || continue
  out="$work/$stem.poses.csv"
  "$poiar" pose "$log" --out "$out" "${extra[@]}" 2>/dev/null
  read -r h i < <(python3 "$eval_py" score --truth "$truth" --poses "$out" --json \
    | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["heading_rmse_deg"], r["inclination_rmse_deg"])')
  printf '| %s | %.2f | %.2f |\n' "$stem" "$h" "$i"
  sumh=$(python3 -c "print($sumh+$h)"); sumi=$(python3 -c "print($sumi+$i)"); n=$((n+1))
done
python3 -c "print('| **mean** | **%.2f** | **%.2f** |' % ($sumh/$n, $sumi/$n))"
[ -n "$keep" ] || rm -rf "$work"

if [ "$references" = 1 ]; then
  echo
  python3 "$eval_py" table --dir "$dir" --poses-cmd "$poiar pose {log} --out {out}"
fi
