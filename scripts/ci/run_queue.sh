#!/usr/bin/env bash
# One lane of CI's test suites: takes chunks off the queue that `scripts/ci/split_tests.ts queue`
# printed (one line a chunk: its run, `postgres` or `ahead`, then its entry, tab-separated) until
# none is left, and runs each as one `deno task test --no-check`, one file at a time:
# - postgres: on Postgres only (TEST_BACKENDS=postgres, TEST_DATABASE_URL from the caller), today;
# - ahead: on PGlite with the clock a year ahead (scripts/ci/clock_ahead.sh).
# Several lanes run side by side on one queue; each chunk is taken by exactly one (a counter under
# a lock, in QUEUE_FILE.taken). Exits 1 if any chunk it ran failed, after running the rest.
#
#   bash scripts/ci/run_queue.sh QUEUE_FILE DENO...
#
# Each chunk's output starts `--- chunk N: RUN` (scripts/ci/test_costs.ts reads the run from it)
# and ends with what it cost: `--- cpu chunk N RUN: C CPU-s (U user + S sys), W s wall, max RSS`
# (scripts/ci/cpu_time.sh), a line for each run of it.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci/cpu_time.sh

QUEUE_FILE="$1"
shift
DENO=("$@")
CHUNKS=()
mapfile -t CHUNKS <"$QUEUE_FILE"

# The next chunk's index: the lines of QUEUE_FILE.taken, one appended per chunk taken.
take_chunk() {
  flock "$QUEUE_FILE.lock" bash -c \
    'n=0; [ ! -e "$1" ] || n="$(wc -l <"$1")"; echo >>"$1"; echo "$n"' _ "$QUEUE_FILE.taken"
}

# One chunk's `deno task test`, in its run.
run_chunk() {
  local kind="$1"
  shift
  local label="chunk $index $kind"
  case "$kind" in
    postgres) TEST_BACKENDS=postgres DENO_JOBS=1 cpu_time "$label" "${DENO[@]}" task test --no-check "$@" ;;
    ahead) DENO_JOBS=1 cpu_time "$label" bash scripts/ci/clock_ahead.sh "${DENO[@]}" task test --no-check "$@" ;;
    *) echo "no run named '$kind'" >&2; return 2 ;;
  esac
}

# Whether OUTPUT_FILE ends with deno test's summary of a run where every test passed (`ok | N
# passed | 0 failed …`, colours aside): deno prints it once, after the last test of the last file.
all_passed() {
  sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E '^(ok|FAILED) \| [0-9]+ passed' | tail -n 1 |
    grep -qE '^ok \| [0-9]+ passed .*\| 0 failed'
}

# Whether npm failed before it started Deno (OUTPUT_FILE has npm's error and no line of Deno's):
# a lane on today's clock and one a year ahead share npm's cache and its lock, and the lock one
# took looks a year stale to the other, so npx can stop with `ECOMPROMISED` (seen on 2026-11-28
# at the lanes' first chunks, started together). No test ran: the chunk is run once more.
npm_failed() {
  local plain
  plain="$(sed 's/\x1b\[[0-9;]*m//g' "$1")"
  grep -q '^npm error' <<<"$plain" && ! grep -qE '^Task |^running [0-9]+ test' <<<"$plain"
}
OUTPUT="$(mktemp)"
trap 'rm -f "$OUTPUT"' EXIT
failed=0
while index="$(take_chunk)" && [ "$index" -lt "${#CHUNKS[@]}" ]; do
  IFS=$'\t' read -r -a fields <<<"${CHUNKS[$index]}"
  kind="${fields[0]}"
  entries=("${fields[@]:1}")
  echo "--- chunk $index: $kind, started at ${SECONDS}s"
  rc=0
  # The chunk's output goes to the log as it comes, and to OUTPUT for the check below.
  run_chunk "$kind" "${entries[@]}" > >(tee "$OUTPUT") 2>&1 || rc=$?
  wait $! 2>/dev/null || true
  # A Deno killed by a signal (exit 128+n): under libfaketime a Deno crashes now and then at exit
  # (SIGSEGV, exit 139) after its summary said every test passed (two in the runs of 2026-11-28,
  # one after a chunk of 15 minutes). Such a chunk is not run again: the log says it crashed after
  # the summary, and its tests' results stand. A crash before that summary (a test not run, or one
  # that failed) runs the chunk once more; a second crash fails the lane. A test that fails exits
  # 1 and is never rerun.
  if [ "$rc" -ge 128 ] && all_passed "$OUTPUT"; then
    echo "--- chunk $index: $kind killed by signal $((rc - 128)) (exit $rc) at exit, after deno's summary said every test passed: not run again"
    rc=0
  elif [ "$rc" != 0 ] && npm_failed "$OUTPUT"; then
    echo "--- chunk $index: $kind: npm failed before Deno started (exit $rc): run once more"
    sleep $((RANDOM % 5 + 1))
    rc=0
    run_chunk "$kind" "${entries[@]}" || rc=$?
  elif [ "$rc" -ge 128 ]; then
    echo "--- chunk $index: $kind killed by signal $((rc - 128)) (exit $rc) after ${SECONDS}s: run once more"
    rc=0
    run_chunk "$kind" "${entries[@]}" || rc=$?
  fi
  echo "--- chunk $index: $kind exit $rc after ${SECONDS}s"
  [ "$rc" = 0 ] || failed=1
done
exit "$failed"
