#!/usr/bin/env bash
# Run a command with the clock moved ahead (a year by default), so a test that
# depends on today's date fails in CI before its date comes, not on the day
# after it.
#
#   bash scripts/ci/clock_ahead.sh [COMMAND...]        (default: the PGlite test suite)
#   CLOCK_AHEAD=+30d bash scripts/ci/clock_ahead.sh npx -y deno@2.9.6 task test
#
# The clock is moved by libfaketime (Debian's `faketime`, installed if missing),
# preloaded into the command and every process it starts: Deno, PGlite inside
# it, the loopback servers, Chromium. A separate Postgres server keeps the real
# clock, so the suite runs on PGlite only here (TEST_DATABASE_URL is unset):
# there the test and its database share one clock, as they do in production.
# npm packages must already be cached: a registry's certificate may not be valid
# at the moved time.
set -euo pipefail
cd "$(dirname "$0")/../.."

OFFSET="${CLOCK_AHEAD:-+365d}"
log() { printf '[clock_ahead] %s\n' "$*" >&2; }

if ! command -v faketime >/dev/null; then
  log "installing Debian's faketime"
  SUDO=()
  if [ "$(id -u)" != 0 ]; then SUDO=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq >&2
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends faketime >&2
fi

if [ "$#" -eq 0 ]; then set -- npx -y deno@2.9.6 task test; fi
unset TEST_DATABASE_URL TEST_BACKENDS
# -f: libfaketime's own format; "+365d" starts a year ahead and lets the clock run.
log "clock moved $OFFSET: $(faketime -f "$OFFSET" date -u +%FT%TZ)"
# -m: libfaketime's multi-threaded variant (libfaketimeMT, locks around its state). Deno runs many
# threads, and under the single-threaded library a Deno crashed now and then at exit (SIGSEGV, exit
# 139: three times on 2026-11-28, once in a child Deno that dev_server_test started, failing it).
# What the clock costs (i43, CPU-s user+sys of one `deno test --no-check` of a unit, PGlite, one
# run each on a loaded machine, ±1 CPU-s): 24 small files: no libfaketime 10.3, `faketime -m` 11.2,
# `faketime` 9.8, LD_PRELOAD without the wrapper's shared memory 10.2 (MT) and 9.9 (single); 24
# database files: none 33.3, `-m` 34.3, `-m` with FAKETIME_DONT_FAKE_MONOTONIC=1 35.4. So the
# multi-threaded variant costs ~3% (~40 of the ~1,400 CPU-s a year ahead), not the ~200 guessed,
# and no variant is clearly cheaper: the one that does not crash stays.
exec faketime -m -f "$OFFSET" "$@"
