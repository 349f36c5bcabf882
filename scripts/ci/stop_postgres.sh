#!/usr/bin/env bash
# Stop the throwaway cluster made by start_postgres.sh (same PGPORT / PG_CI_DIR)
# and delete its data. A no-op when nothing was started there.
set -euo pipefail

PORT="${PGPORT:-54329}"
PGBIN="${PGBIN:-/usr/lib/postgresql/15/bin}"
DIR="${PG_CI_DIR:-${TMPDIR:-/tmp}/easymo-pg-${PORT}}"

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ ! -d "$DIR/data" ]; then
  echo "[stop_postgres] no cluster at $DIR" >&2
  exit 0
fi

# 'fast' rolls back open sessions and exits cleanly; data is thrown away anyway.
as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -m fast -w -t 30 stop >&2 ||
  as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >&2 || true
rm -rf "$DIR" "${DIR}.lock"
echo "[stop_postgres] stopped and removed $DIR" >&2
