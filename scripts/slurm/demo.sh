#!/usr/bin/env bash
# The sharded replay on a real Slurm, in one command (docs/batch.md, "Slurm: a job array"):
#
#   bash scripts/slurm/demo.sh [--shards N]
#
# On Debian 12 (as root; otherwise poiar is built as you and the rest runs through sudo):
#  1. installs what is missing: Debian's slurm-wlm and munge, and poiar's build packages
#     (scripts/install-deps.sh); builds poiar in release, unless POIAR=/path/to/poiar names
#     a binary already built;
#  2. starts a one-node Slurm on localhost from a temporary folder (mktemp -d): its own
#     munged (the key /etc/munge/munge.key, created if there is none; its own socket),
#     slurmctld and slurmd on ports 16817 and 16818 (SLURM_DEMO_PORT moves them), a
#     slurm.conf pointed at by SLURM_CONF; a Slurm already running on the machine is not
#     touched;
#  3. replays SampleLogs/walk.csv (cafes) as a job array of N shards (default 4; --shards N
#     or SHARDS=N) into OUT, then `poiar merge OUT` as a job that depends on the array
#     (afterok), waits for both (at most SLURM_DEMO_TIMEOUT seconds, default 600), runs the
#     same replay in one process and checks that every file is the same, byte for byte;
#  4. prints the job ids, sacct's view of the jobs and both wall times.
#
# Everything it started is stopped at the end, also on failure or Ctrl-C, and the temporary
# folder (configuration, state, logs and both outputs) is removed. Exit status 0 when the
# outputs are identical; otherwise one line `slurm-demo: error: …` and a non-zero status.
set -Eeuo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

say() { echo "slurm-demo: $*"; }

usage() {
  sed -n '2,/^set -Eeuo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}

shards=${SHARDS:-4}
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) [ $# -ge 2 ] || { echo "slurm-demo: error: --shards needs a number" >&2; exit 2; }
              shards=$2; shift 2 ;;
    --shards=*) shards=${1#--shards=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "slurm-demo: error: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
if ! [[ "$shards" =~ ^[0-9]+$ ]] || [ "$shards" -lt 1 ] || [ "$shards" -gt 256 ]; then
  echo "slurm-demo: error: --shards must be a whole number from 1 to 256, not '$shards'" >&2
  exit 2
fi
port=${SLURM_DEMO_PORT:-16817}
timeout=${SLURM_DEMO_TIMEOUT:-600}
for value in "$port" "$timeout"; do
  [[ "$value" =~ ^[0-9]+$ ]] || { echo "slurm-demo: error: not a number: '$value'" >&2; exit 2; }
done

tmp=""
munged_pid=""
slurmctld_pid=""
slurmd_pid=""
submitted=no
reason=""
failed_command=""

die() {
  reason=$*
  exit 1
}

# Stops what this script started: its jobs, then slurmd, slurmctld and munged (by their
# process ids), and removes the temporary folder. The one-line reason comes last.
stop_pid() {
  local pid=$1
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM ERR
  if [ "$submitted" = yes ] && [ -n "$slurmctld_pid" ] && [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
    scancel --user=root --partition=demo 2>/dev/null
    for _ in $(seq 1 100); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  stop_pid "$slurmd_pid"
  stop_pid "$slurmctld_pid"
  stop_pid "$munged_pid"
  [ -n "$tmp" ] && rm -rf "$tmp"
  if [ "$status" -ne 0 ]; then
    if [ -z "$reason" ]; then
      if [ -n "$failed_command" ]; then
        reason="'$failed_command' failed (exit status $status)"
      else
        reason="failed (exit status $status)"
      fi
    fi
    echo "slurm-demo: error: $reason" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'reason="interrupted"; exit 130' INT
trap 'reason="terminated"; exit 143' TERM
trap 'failed_command=$BASH_COMMAND' ERR

# Prints the last lines of a file to stderr, indented (context before a reason).
show_tail() {
  [ -f "$1" ] || return 0
  echo "slurm-demo: last lines of $1:" >&2
  tail -n "${2:-15}" "$1" | sed 's/^/    /' >&2
}

seconds_since() {
  LC_ALL=C awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'
}

log=SampleLogs/walk.csv
pois=SampleLogs/helsinki-esplanadi.osm

# poiar's packages, the build (unless POIAR is given) and the POI cache: as the user who
# runs the script, so that no root-owned files land in the checkout.
prepare_poiar() {
  bash scripts/install-deps.sh slurm-wlm munge
  if [ -n "${POIAR:-}" ]; then
    [ -x "$POIAR" ] || die "POIAR=$POIAR is not an executable file"
    poiar=$(cd "$(dirname "$POIAR")" && pwd)/$(basename "$POIAR")
  else
    command -v swift >/dev/null 2>&1 ||
      die "swift is not on PATH: install the Swift 6.3 toolchain (swift.org/install) or give POIAR=/path/to/poiar"
    say "building poiar (release; the first build takes a few minutes)"
    # SwiftPM leaves empty TemporaryDirectory.* folders in the temp folder: give it one of its own.
    local build_tmp
    build_tmp=$(mktemp -d "${TMPDIR:-/tmp}/poiar-demo-build.XXXXXX")
    TMPDIR="$build_tmp" swift build -c release --product poiar || { rm -rf "$build_tmp"; die "swift build failed"; }
    poiar=$(TMPDIR="$build_tmp" swift build -c release --show-bin-path)/poiar
    rm -rf "$build_tmp"
  fi
  # The shards start at the same time: import the POI source into its cache
  # (SampleLogs/helsinki-esplanadi.osm.poiar.sqlite) once, before they do.
  "$poiar" pois query --db "$pois" --near 60.16787,24.94926 --radius 10 --limit 1 >/dev/null
}

if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || die "the Slurm daemons need root: run this as root, or install sudo"
  prepare_poiar
  say "starting Slurm needs root: continuing through sudo"
  exec sudo env PATH="$PATH" POIAR="$poiar" SHARDS="$shards" SLURM_DEMO_PORT="$port" \
    SLURM_DEMO_TIMEOUT="$timeout" bash "$repo/scripts/slurm/demo.sh"
fi

# ---- from here on as root ----------------------------------------------------------------

# munged, slurmctld and slurmd are in /usr/sbin, which a user's PATH (kept through sudo) lacks
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

# 1. packages and poiar ----------------------------------------------------------------------

prepare_poiar
say "poiar: $poiar"

# 2. a one-node Slurm on localhost -----------------------------------------------------------

unset "${!SLURM_@}"   # this may itself run inside a Slurm job: none of its settings apply
ctld_port=$port
slurmd_port=$((port + 1))
for p in "$ctld_port" "$slurmd_port"; do
  if (: <>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    die "port $p on localhost is in use (another Slurm?): choose others with SLURM_DEMO_PORT=N (uses N and N+1)"
  fi
done

key=/etc/munge/munge.key
if [ ! -s "$key" ]; then
  say "no munge key: creating $key"
  mkdir -p /etc/munge
  mungekey --create --keyfile="$key"
  if getent passwd munge >/dev/null; then chown munge:munge /etc/munge "$key"; fi
  chmod 0700 /etc/munge
  chmod 0600 "$key"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/poiar-slurm-demo.XXXXXX")
chmod 0755 "$tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/jobs"
out_slurm=$tmp/out-slurm
out_single=$tmp/out-single
socket=$tmp/munge/munge.socket

# The daemons run in sessions of their own (setsid): a Ctrl-C in the terminal reaches this
# script, which cancels the jobs and then stops them in order, but not them directly.
# munged as root needs --force (it warns that the key belongs to the munge user); its own
# socket, so that a munged of the machine's own Slurm is left alone.
setsid munged --foreground --force --socket="$socket" --key-file="$key" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/munged.seed" >"$tmp/munge/munged.out" 2>&1 &
munged_pid=$!
for _ in $(seq 1 50); do
  [ -S "$socket" ] && break
  kill -0 "$munged_pid" 2>/dev/null || break
  sleep 0.1
done
if ! munge --socket="$socket" --no-input | unmunge --socket="$socket" >/dev/null 2>&1; then
  show_tail "$tmp/munge/munged.out"
  show_tail "$tmp/munge/munged.log"
  die "munged did not start (key $key)"
fi

cpus=$(nproc)
memory=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
# A one-node cluster on localhost for scripts/slurm/demo.sh; everything in $tmp.
ClusterName=poiardemo
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
MailProg=/bin/true
# no systemd and no cgroups in a container: track processes by their parent, no task binding
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SwitchType=switch/none
# no slurmdbd: finished jobs go to a text file that \`sacct --completion\` reads
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$tmp/jobcomp.txt
SchedulerType=sched/backfill
# a job whose dependency can never be met (a failed shard) is cancelled, not left pending
DependencyParameters=kill_invalid_depend
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# a cancelled job's processes get SIGKILL 5 s after SIGTERM (default 30 s)
KillWait=5
NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=demo Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

setsid slurmctld -D >"$tmp/log/slurmctld.out" 2>&1 &
slurmctld_pid=$!
setsid slurmd -D -N localhost >"$tmp/log/slurmd.out" 2>&1 &
slurmd_pid=$!
say "Slurm in $tmp: munged $munged_pid, slurmctld $slurmctld_pid (port $ctld_port), slurmd $slurmd_pid (port $slurmd_port); localhost: $cpus CPUs, $memory MB"

state=""
for _ in $(seq 1 150); do
  kill -0 "$slurmctld_pid" 2>/dev/null || { show_tail "$tmp/log/slurmctld.out"; die "slurmctld stopped at startup"; }
  kill -0 "$slurmd_pid" 2>/dev/null || { show_tail "$tmp/log/slurmd.out"; die "slurmd stopped at startup"; }
  state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
if [ "$state" != idle ]; then
  show_tail "$tmp/log/slurmctld.log"
  show_tail "$tmp/log/slurmd.log"
  die "node localhost is not idle after 30 s (sinfo: '${state:-no answer}')"
fi
sinfo

# 3. the job array and the merge -------------------------------------------------------------

q() { printf '%q' "$1"; }
cat >"$tmp/replay.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=poiar-walk
#SBATCH --array=0-$((shards - 1))
#SBATCH --cpus-per-task=1
set -euo pipefail
exec $(q "$poiar") replay $(q "$log") --filter cafe --out $(q "$out_slurm") \\
  --shard "\$SLURM_ARRAY_TASK_ID/$shards" --progress-interval 0
EOF

merge_command="$(q "$poiar") merge $(q "$out_slurm")"
say "submitting $shards shards (in $repo) and the merge; the job script:"
sed 's/^/    /' "$tmp/replay.sbatch"
say "the merge: $merge_command"
started=$EPOCHREALTIME
submitted=yes
array_id=$(sbatch --parsable --chdir="$repo" --output="$tmp/jobs/%x-%A_%a.out" "$tmp/replay.sbatch")
merge_id=$(sbatch --parsable --chdir="$repo" --job-name=poiar-merge --dependency="afterok:$array_id" \
  --output="$tmp/jobs/%x-%j.out" --wrap "$merge_command")
array_id=${array_id%%;*}
merge_id=${merge_id%%;*}
say "array job $array_id (tasks 0-$((shards - 1))), merge job $merge_id (afterok:$array_id)"

deadline=$((SECONDS + timeout))
while [ -n "$(squeue -h -o %i)" ]; do
  # the merge waits for a shard that failed: nothing more will run
  squeue -h -o %r | grep -q DependencyNeverSatisfied && break
  if [ "$SECONDS" -ge "$deadline" ]; then
    squeue >&2
    die "the jobs did not finish within $timeout s (SLURM_DEMO_TIMEOUT)"
  fi
  sleep 0.5
done
slurm_seconds=$(seconds_since "$started")

# Every job's end is in the jobcomp file: JobId=… Name=… JobState=… [ArrayJobId=… ArrayTaskId=…] ExitCode=…
jobs_done() {
  awk -v array="$array_id" -v merge="$merge_id" '
    function field(key,   v) {
      if (!match($0, "(^| )" key "=[^ ]*")) return ""
      v = substr($0, RSTART, RLENGTH); return substr(v, index(v, "=") + 1) }
    { id = field("JobId"); a = field("ArrayJobId"); t = field("ArrayTaskId")
      if (a == array) print array "_" t, id, field("JobState"), field("ExitCode")
      else if (id == merge) print merge, id, field("JobState"), field("ExitCode") }' "$tmp/jobcomp.txt" 2>/dev/null | sort -V
}
for _ in $(seq 1 50); do
  [ "$(jobs_done | wc -l)" -ge $((shards + 1)) ] && break
  sleep 0.2
done
done_list=$(jobs_done)
failed=$(awk '$3 != "COMPLETED" { print $1 " " $3 " (exit " $4 ")" }' <<<"$done_list")
if [ "$(wc -l <<<"$done_list")" -lt $((shards + 1)) ] || [ -n "$failed" ]; then
  while read -r name _ state _; do
    [ -z "$name" ] || [ "$state" = COMPLETED ] && continue
    case "$name" in
      *_*) show_tail "$tmp/jobs/poiar-walk-$name.out" ;;
      *) show_tail "$tmp/jobs/poiar-merge-$name.out" ;;
    esac
  done <<<"$done_list"
  die "jobs did not all complete: $(tr '\n' ';' <<<"${failed:-some jobs are missing from the job completion log}" | sed 's/;$//; s/;/, /g')"
fi

# 4. one process, the comparison, the report -------------------------------------------------

say "the same replay in one process"
started=$EPOCHREALTIME
"$poiar" replay "$log" --filter cafe --out "$out_single" --progress-interval 0 >"$tmp/single.out" 2>&1 || {
  show_tail "$tmp/single.out"
  die "the one-process replay failed"
}
single_seconds=$(seconds_since "$started")

files=$(find "$out_single" -type f | wc -l)
frames=$(find "$out_single" -type f -name 'frame_*.png' | wc -l)
if ! diff -r "$out_single" "$out_slurm" >"$tmp/diff.out" 2>&1; then
  head -n 5 "$tmp/diff.out" | sed 's/^/    /' >&2
  die "the merged output differs from the one-process output ($(wc -l <"$tmp/diff.out") diff lines)"
fi

echo
say "array job $array_id, merge job $merge_id"
# sacct without slurmdbd: --completion reads the jobcomp file. Slurm 22.05's reader does not
# know the ArrayJobId/ArrayTaskId fields its writer adds and says so for every line: dropped.
sacct --completion --format=JobID,JobName%12,State,Start,End,Elapsed,ExitCode,NodeList \
  2>"$tmp/sacct.err"
grep -v -E "Unknown type Array(Job|Task)Id" "$tmp/sacct.err" >&2 || true
say "sacct --completion lists array tasks by their own job ids: $(awk '$1 ~ /_/ { printf "%s%s = %s", sep, $1, $2; sep = ", " }' <<<"$done_list")"
say "merged output = one-process output, byte for byte: $files files ($frames frames + frames.jsonl)"
say "wall time: Slurm, $shards shards on $cpus CPUs + merge (submit to done) ${slurm_seconds} s; one process ${single_seconds} s"
say "stopping slurmd, slurmctld and munged; removing $tmp"
