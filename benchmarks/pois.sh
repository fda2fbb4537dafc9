#!/usr/bin/env bash
# POI store benchmark: import speed on the real OSM extracts in ../shared/data/osm and on a
# generated 1,000,000-POI CSV, the same 200,000 POIs imported as CSV, GeoJSON and Overpass JSON
# (time and peak memory), database size per POI, and radius-query latency (in-process,
# `poiar pois bench`) against a straightforward reference (Python's sqlite3 over an R*Tree,
# benchmarks/ref_query.py) answering the same queries. One run; prints a Markdown table.
# Numbers go in docs/pois-performance.md.
#   bash benchmarks/pois.sh [--work DIR] [--queries N] [--no-build] [--forms-only]
# --forms-only: only the CSV / GeoJSON / Overpass JSON comparison.
# DIR (default /tmp/poiar-pois-bench) keeps the generated CSV between runs; the databases
# are rebuilt every run.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work=/tmp/poiar-pois-bench
queries=10000
build=1
forms_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift 2;;
    --queries) queries="$2"; shift 2;;
    --no-build) build=0; shift;;
    --forms-only) forms_only=1; shift;;
    *) echo "usage: $0 [--work DIR] [--queries N] [--no-build] [--forms-only]" >&2; exit 64;;
  esac
done
mkdir -p "$work"
poiar="$here/.build/release/poiar"
if [ "$build" = 1 ]; then
  (cd "$here" && swift build -c release --product poiar >&2)
fi
osm="$here/../shared/data/osm"
near=60.1699,24.9384
filter=atm,cafe,park,parking,restaurant,school,store,university

# Runs a command; prints "WALL CPU RSS": seconds (CPU: user + system of the command) and its
# peak resident memory in MB.
timed() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t0 = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %.2f %.0f" % (wall, r.ru_utime + r.ru_stime, r.ru_maxrss / 1024))
PY
}
size_per_poi() { python3 -c "import os,sys; print('%.0f' % (os.path.getsize(sys.argv[1]) / int(sys.argv[2])))" "$1" "$2"; }
count() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from poi').fetchone()[0])" "$1"; }

if [ "$forms_only" = 0 ]; then
echo "| what | POIs | wall time | CPU time | DB bytes/POI |"
echo "|---|---:|---:|---:|---:|"
if [ -d "$osm" ]; then
  for f in Helsinki.osm.pbf aguascalientes.osm.pbf aguascalientes.osm.bz2 West-Oakland.osm.bz2 SanFrancisco-InnerSunset.overpass.json; do
    [ -f "$osm/$f" ] || continue
    db="$work/$f.sqlite"; rm -f "$db"
    read -r wall cpu _ <<<"$(timed "$poiar" pois import "$osm/$f" --db "$db")"
    n=$(count "$db")
    echo "| import \`$f\` ($(stat -c %s "$osm/$f") B) | $n | $wall s | $cpu s | $(size_per_poi "$db" "$n") |"
  done
fi

csv="$work/pois-1m.csv"
[ -f "$csv" ] || python3 "$here/benchmarks/gen_pois.py" "$csv" 1000000
db="$work/pois-1m.sqlite"; rm -f "$db"
read -r wall cpu _ <<<"$(timed "$poiar" pois import "$csv" --db "$db")"
n=$(count "$db")
echo "| import generated CSV ($(stat -c %s "$csv") B) | $n | $wall s | $cpu s | $(size_per_poi "$db" "$n") |"

ref="$work/pois-1m.ref.sqlite"; rm -f "$ref"
ref_queries=$((queries < 2000 ? queries : 2000))
ref_out=$(python3 "$here/benchmarks/ref_query.py" "$csv" "$ref" --near "$near" --spread 3000 --radius 1500 \
  --filter "$filter" --queries "$ref_queries" --seed 1)
read -r ref_import ref_median ref_p99 ref_hits <<<"$ref_out"
echo "| reference import (Python sqlite3, executemany, R*Tree) | $n | $ref_import s | | $(size_per_poi "$ref" "$n") |"
# The same $ref_queries queries through poiar, to check both find the same POIs.
cross_hits=$("$poiar" pois bench --db "$db" --near "$near" --spread 3000 --radius 1500 --filter "$filter" \
  --queries "$ref_queries" --index cell | tail -1 | awk '{print $7}')

echo
echo "Radius queries: 1500 m, one category drawn from $filter, centres uniform within 3 km of $near;"
echo "$queries queries (reference: the first $ref_queries of them), after 200 warm-up ones; microseconds; \"CPU\" is the"
echo "querying thread's CPU time (what a query costs, whatever else the machine runs)."
echo
echo "| query path | median µs | p99 µs | CPU median µs | CPU p99 µs | mean hits | reference median / this median |"
echo "|---|---:|---:|---:|---:|---:|---:|"
"$poiar" pois bench --db "$db" --near "$near" --spread 3000 --radius 1500 --filter "$filter" \
  --queries "$queries" --index cell,cell-cold,rtree,rtree2d | tail -n +2 | while read -r index q median p99 cmed cp99 hits setup; do
  case "$index" in
    cell) label="poiar: cell B-tree, row cache (what \`query\` does)";;
    cell-cold) label="poiar: cell B-tree, row cache emptied before each query";;
    rtree) label="alternative: R*Tree (category, lat, lon), same plan";;
    rtree2d) label="alternative: R*Tree (lat, lon) joined to poi (schema v1)";;
  esac
  ratio=$(python3 -c "import sys; print('%.0f×' % (float(sys.argv[1]) / float(sys.argv[2])))" "$ref_median" "$median")
  echo "| $label | $median | $p99 | $cmed | $cp99 | $hits | $ratio |"
done
echo "| reference: Python sqlite3, R*Tree + join + Vincenty in Python | $ref_median | $ref_p99 | | | $ref_hits | 1× |"
echo
echo "On the reference's $ref_queries queries poiar finds $cross_hits POIs per query on average, the reference $ref_hits."
echo
fi

# The same 200,000 POIs as CSV, GeoJSON and Overpass JSON: the JSON importers stream (one
# feature or element at a time), so they should take at most 2× the CSV's time and 1.5× its
# memory. The best of three runs of each.
small="$work/pois-200k.csv"
[ -f "$small" ] || python3 "$here/benchmarks/gen_pois.py" "$small" 200000
[ -f "$work/pois-200k.geojson" ] || python3 "$here/benchmarks/pois_as_json.py" "$small" "$work/pois-200k.geojson" "$work/pois-200k.overpass.json"
echo
echo "Import of the same 200,000 POIs in three forms (best of 3 runs; peak RSS of the import process):"
echo
echo "| source | bytes | POIs | wall time | CPU time | peak memory | time / CSV's | memory / CSV's |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
csv_wall="" csv_rss=""
for f in pois-200k.csv pois-200k.geojson pois-200k.overpass.json; do
  best_wall="" best_cpu="" best_rss=""
  for run in 1 2 3; do
    db="$work/$f.sqlite"; rm -f "$db"
    read -r wall cpu rss <<<"$(timed "$poiar" pois import "$work/$f" --db "$db")"
    if [ -z "$best_wall" ] || python3 -c "import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))" "$wall" "$best_wall"; then
      best_wall=$wall best_cpu=$cpu
    fi
    if [ -z "$best_rss" ] || [ "$rss" -lt "$best_rss" ]; then best_rss=$rss; fi
  done
  n=$(count "$db")
  [ -n "$csv_wall" ] || { csv_wall=$best_wall; csv_rss=$best_rss; }
  ratios=$(python3 -c "import sys; print('%.2f× | %.2f×' % (float(sys.argv[1]) / float(sys.argv[2]), float(sys.argv[3]) / float(sys.argv[4])))" \
    "$best_wall" "$csv_wall" "$best_rss" "$csv_rss")
  echo "| \`$f\` | $(stat -c %s "$work/$f") | $n | $best_wall s | $best_cpu s | $best_rss MB | $ratios |"
done
echo

echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(date -u +%Y-%m-%dT%H:%MZ)."
