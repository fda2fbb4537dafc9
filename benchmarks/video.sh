#!/usr/bin/env bash
# The cost of --video, in one run (docs/batch.md, "Video"): the sample walk (446 frames,
# 720×1280) replayed three ways, alternately so background load hits each alike:
#   png:   poiar replay LOG --jobs J                       — the frames as PNG files;
#   video: poiar replay LOG --jobs J --video               — the same and video.mp4, encoded
#          while the frames are drawn;
#   only:  poiar replay LOG --jobs J --video --no-frames   — video.mp4 alone, no PNG files.
# Each is timed --runs times (default 3); the best run of each counts. Prints the wall times,
# the ratios video / png (target ≤ 1.2) and only / png (target < 1), the CPU time of each
# best run (user + system), peak memory (max RSS), the sizes, and checks the video: its frame
# count read back by poiar's decoder (`poiar bench-footage`, libavcodec), and ffprobe's when
# it is installed.
#   benchmarks/video.sh [--runs N] [--jobs J] [--log FILE] [--no-build]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$here/benchmarks/.work/video"
log="$here/SampleLogs/walk.csv"
runs=3
jobs=2
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2;;
    --jobs) jobs="$2"; shift 2;;
    --log) log="$2"; shift 2;;
    --no-build) build=0; shift;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
. "$here/benchmarks/release_poiar.sh"
mkdir -p "$work"

declare -A flags=([png]="" [video]="--video" [only]="--video --no-frames")
modes=(png video only)

echo "## Video benchmark"
echo
echo "$(nproc) cores, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg); $(basename "$log"), --jobs $jobs, $runs runs each, best counts"
echo
# The POI source's cache is built once, before timing.
"$poiar" replay "$log" --out "$work/warm" --fps 0.1 --progress-interval 0 >/dev/null 2>&1
rm -rf "$work/warm"

declare -A best_wall best_cpu best_rss
for _ in $(seq "$runs"); do
  for mode in "${modes[@]}"; do
    rm -rf "${work:?}/$mode"
    # shellcheck disable=SC2086  # the flags are words
    /usr/bin/time -o "$work/time" -f '%e %U %S %M' "$poiar" replay "$log" --jobs "$jobs" --out "$work/$mode" \
      --progress-interval 0 ${flags[$mode]} >/dev/null 2>&1
    read -r wall user sys rss < "$work/time"
    if [ -z "${best_wall[$mode]:-}" ] || [ "$(echo "$wall < ${best_wall[$mode]}" | bc -l)" = 1 ]; then
      best_wall[$mode]=$wall; best_cpu[$mode]=$(echo "$user + $sys" | bc -l); best_rss[$mode]=$rss
    fi
  done
done

echo "| run | wall (s) | / png | CPU (s) | peak memory (MiB) | written |"
echo "|---|---|---|---|---|---|"
for mode in "${modes[@]}"; do
  pngs=$(find "$work/$mode" -maxdepth 1 -name 'frame_*.png' | wc -l)
  png_bytes=$(find "$work/$mode" -maxdepth 1 -name 'frame_*.png' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
  written="$pngs PNG files ($((png_bytes / 1048576)) MiB)"
  if [ -f "$work/$mode/video.mp4" ]; then
    written="$written, video.mp4 ($(( $(stat -c %s "$work/$mode/video.mp4") / 1048576 )) MiB)"
  fi
  printf '| %s | %.2f | %.3f | %.1f | %d | %s |\n' "$mode" "${best_wall[$mode]}" \
    "$(echo "${best_wall[$mode]} / ${best_wall[png]}" | bc -l)" "${best_cpu[$mode]}" "$((best_rss[$mode] / 1024))" "$written"
done
echo

# The videos hold every frame: counted by decoding them, and by ffprobe when it is there.
frames=$(wc -l < "$work/png/frames.jsonl")
for mode in video only; do
  rm -rf "$work/decoded" "$work/time"
  decoded=$("$poiar" bench-footage "$work/$mode/video.mp4" --out "$work/decoded" --png-level 0 2>&1 | sed -n 's/^bench-footage: \([0-9]*\) frames.*/\1/p')
  probe=""
  if command -v ffprobe >/dev/null 2>&1; then
    probe=", ffprobe: $(ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$work/$mode/video.mp4") frames"
  fi
  echo "$mode: frames.jsonl lists $frames frames; video.mp4 decodes to $decoded$probe"
  [ "$decoded" = "$frames" ] || { echo "video.sh: $mode's video.mp4 has $decoded frames, not $frames" >&2; exit 1; }
done
cmp -s "$work/video/video.mp4" "$work/only/video.mp4" && echo "video and only made the same video.mp4, byte for byte"
rm -rf "$work/decoded" "$work/time"
