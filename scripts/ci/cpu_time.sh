# Sourced by .ci/run and scripts/ci/run_queue.sh: what a job or a chunk cost, in CPU-seconds.
#
#   source scripts/ci/cpu_time.sh
#   cpu_time "chunk 3 ahead" deno task test …   # runs the command, returns its exit status
#
# After the command it prints one line (GNU time's rusage of the command and every process it
# waited for):
#
#   --- cpu chunk 3 ahead: 95.3 CPU-s (80.1 user + 15.2 sys), 420.1 s wall, max RSS 1,310 MB
#
# CI's wall time is the machine's load (other jobs, other users); CPU-seconds are the work, and two
# cores give 1,800 of them in 15 minutes. A process orphaned before it ends (reparented to init) is
# not counted. `cpu_summary LOG...` totals the `job` lines of the logs. Without /usr/bin/time
# (Debian's `time`, which .ci/run installs) the command runs and the line says it was not measured.

cpu_time() {
  local label="$1"
  shift
  if [ ! -x /usr/bin/time ]; then
    local rc=0
    "$@" || rc=$?
    echo "--- cpu $label: not measured (no /usr/bin/time)"
    return "$rc"
  fi
  local out rc=0
  out="$(mktemp)"
  /usr/bin/time -o "$out" -f '%U %S %e %M' "$@" || rc=$?
  # The last line is the format's; a line before it may say the command failed or was killed.
  tail -n 1 "$out" | awk -v label="$label" '{
    printf "--- cpu %s: %.1f CPU-s (%.1f user + %.1f sys), %.1f s wall, max RSS %d MB\n",
      label, $1 + $2, $1, $2, $3, $4 / 1024
  }'
  rm -f "$out"
  return "$rc"
}

# The `--- cpu job NAME:` lines of LOG... as a table, most CPU first, and their total.
cpu_summary() {
  local lines
  lines="$(grep -h '^--- cpu job ' "$@" || true)"
  # `--- cpu job NAME: C CPU-s (U user + S sys), W s wall, …`: C, U, S and W are fields 5, 7, 10, 12.
  awk '{ name = $4; sub(/:$/, "", name); printf "  %-10s %8.1f CPU-s %8.1f s wall\n", name, $5, $12 }' \
    <<<"$lines" | sort -k2,2 -n -r
  awk '{ user += substr($7, 2); sys += $10 }
    END { printf "  %-10s %8.1f CPU-s (%.1f user + %.1f sys)\n", "total", user + sys, user, sys }' \
    <<<"$lines"
}

# The CPU-seconds of the Postgres server whose data directory is DIR (scripts/ci/start_postgres.sh):
# the postmaster's own and its ended sessions' (reaped, so in its children's times), and the
# processes it still runs (checkpointer, writers). A test's queries run there, not in the test's
# process: the jobs' table does not see them (measured on 2026-11-28: ~1.7 CPU-s of the server for
# each CPU-s of a Postgres test file's own). Prints nothing when the server is not running.
postgres_cpu() {
  local pid ticks hz
  pid="$(head -n 1 "$1/data/postmaster.pid" 2>/dev/null)" || return 0
  [ -r "/proc/$pid/stat" ] || return 0
  hz="$(getconf CLK_TCK)"
  # Fields 14-17 of /proc/PID/stat: utime, stime, cutime, cstime (the name, field 2, has no spaces).
  ticks="$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat")"
  for child in $(pgrep -P "$pid"); do
    ticks=$((ticks + $(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || echo 0)))
  done
  awk -v t="$ticks" -v hz="$hz" 'BEGIN { printf "  %-10s %8.1f CPU-s (the server beside the jobs)\n", "postgres", t / hz }'
}
