#!/usr/bin/env bash
# Start a throwaway PostgreSQL 15 cluster for tests/CI and print its URL.
#
#   scripts/ci/start_postgres.sh            # port 54329
#   PGPORT=55000 scripts/ci/start_postgres.sh
#
# - Installs Debian's postgresql-15 only if initdb is missing (bare machine).
# - Data lives in ${PG_CI_DIR:-${TMPDIR:-/tmp}/easymo-pg-$PGPORT}; it is wiped
#   and re-created whenever no server answers, so a crashed run never sticks.
# - Listens on 127.0.0.1 only; user postgres / password postgres over
#   scram-sha-256 (PG_AUTH=trust to skip passwords).
# - Tuned for speed, not durability: fsync/synchronous_commit/full_page_writes off.
# - Idempotent: if a server already answers on the port, it just prints the URL.
# - The LAST line on stdout is the URL; all progress goes to stderr.
set -euo pipefail

PORT="${PGPORT:-54329}"
PGBIN="${PGBIN:-/usr/lib/postgresql/15/bin}"
DIR="${PG_CI_DIR:-${TMPDIR:-/tmp}/easymo-pg-${PORT}}"
AUTH="${PG_AUTH:-scram-sha-256}"
URL="postgres://postgres:postgres@127.0.0.1:${PORT}/postgres"

log() { printf '[start_postgres] %s\n' "$*" >&2; }

# initdb/pg_ctl refuse to run as root: run them as the postgres OS user then.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Does a server accept connections on our port? (pg_isready comes with the client.)
answers() {
  if [ -x "$PGBIN/pg_isready" ]; then
    "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -t 2
  elif command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h 127.0.0.1 -p "$PORT" -t 2
  else
    return 1
  fi
}

if [ ! -x "$PGBIN/initdb" ]; then
  log "installing postgresql-15 from apt"
  # Keep the package from creating and starting its own 'main' cluster on 5432.
  mkdir -p /etc/postgresql-common
  [ -e /etc/postgresql-common/createcluster.conf ] ||
    echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    postgresql-15 >&2
fi

if answers; then
  log "a server already answers on 127.0.0.1:${PORT}"
  echo "$URL"
  exit 0
fi

# Serialise concurrent starts on the same port (parallel test runners). The
# lock fd is closed for pg_ctl below, or the postmaster would hold it forever.
mkdir -p "$(dirname "$DIR")"
exec 9>"${DIR}.lock"
flock 9

if answers; then
  log "a server already answers on 127.0.0.1:${PORT}"
  echo "$URL"
  exit 0
fi

# Nothing answers: (re)create the cluster from scratch.
if [ -d "$DIR" ]; then
  log "removing stale data dir $DIR"
  as_pg "$PGBIN/pg_ctl" -D "$DIR/data" stop -m immediate >/dev/null 2>&1 9>&- || true
  rm -rf "$DIR"
fi
mkdir -p "$DIR"
if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$DIR"; fi
chmod 700 "$DIR"

printf 'postgres\n' >"$DIR/pwfile"
if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$DIR/pwfile"; fi

log "initdb in $DIR/data"
as_pg "$PGBIN/initdb" -D "$DIR/data" -U postgres --pwfile="$DIR/pwfile" \
  -E UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host="$AUTH" >"$DIR/initdb.log" 2>&1 ||
  { cat "$DIR/initdb.log" >&2; exit 1; }
rm -f "$DIR/pwfile"

# Loopback only; the unix socket goes in our own dir (no /var/run/postgresql needed).
cat >>"$DIR/data/postgresql.conf" <<EOF

# --- easymo CI settings (scripts/ci/start_postgres.sh) ---
listen_addresses = '127.0.0.1'
port = ${PORT}
unix_socket_directories = '${DIR}'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
password_encryption = 'scram-sha-256'
EOF

# Only loopback host connections (no ::1 since we don't listen there).
cat >"$DIR/data/pg_hba.conf" <<EOF
local all all               trust
host  all all 127.0.0.1/32  ${AUTH}
EOF

log "starting postgres on 127.0.0.1:${PORT}"
if ! as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/postgres.log" -w -t 60 start >&2 9>&-; then
  tail -n 50 "$DIR/postgres.log" >&2 || true
  exit 1
fi

# pg_ctl -w already waited; double-check over TCP before handing out the URL.
for _ in $(seq 1 60); do
  answers && break
  sleep 0.5
done
answers || { log "server did not become ready"; tail -n 50 "$DIR/postgres.log" >&2; exit 1; }

echo "$URL"
