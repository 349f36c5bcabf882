#!/usr/bin/env bash
# Prove our migrations apply with the real Supabase CLI and pass its linter.
#
#   scripts/ci/check_supabase_cli.sh DB_URL [PROJECT_DIR]
#
#   DB_URL       any database on the target server, e.g. the URL printed by
#                scripts/ci/start_postgres.sh; a fresh database is made beside it.
#   PROJECT_DIR  directory that contains supabase/ (default: the repo root).
#
# Steps: (re)create database $CLI_CHECK_DB (default easymo_cli_check), apply
# supabase/bootstrap/supabase_compat.sql with psql (plain Postgres lacks
# Supabase's roles and auth schema), `supabase db push` every migration, then
# `supabase db advisors` (security + performance). Exit 1 on any WARN or ERROR
# finding, which are printed; INFO findings (e.g. unused_index, always true on
# an empty database) are only counted, ADVISORS_SHOW_INFO=1 prints them too.
#
# The database pushed to has only what a new hosted project has: after the
# bootstrap, an extension outside HOSTED_EXTENSIONS (Supabase's defaults) fails
# the check, so nothing our schema needs can hide in the bootstrap. After the
# push, every local migration must be recorded and every extension the
# migrations created must live in `extensions`. (One difference remains: here
# the CLI connects as a superuser, on Supabase `postgres` is not one and
# supautils creates the extensions it allows, earthdistance among them.)
#
# About the CLI: the npm package `supabase` (v3) is a small node shim whose
# binary comes from the platform package @supabase/cli-linux-x64 (an
# optionalDependency, fetched from the npm registry like any package). There is
# no postinstall download from GitHub, so `npx -y supabase@3.1.0` works with
# only the npm registry reachable. SUPABASE_CLI overrides the command, e.g.
# SUPABASE_CLI=/path/to/node_modules/.bin/supabase.
#
# Flags, as checked with `--help` of 3.1.0 (there is no --db-url in v3):
#   db push     --remote=<url> --yes
#   db advisors --remote=<url> --type all --level info --output-format json
#               (prints {"results":[{name,title,level,categories,detail,...}]})
# No supabase/config.toml is needed for either command.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 DB_URL [PROJECT_DIR]" >&2
  exit 2
fi

DB_URL="$1"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PROJECT_DIR="$(cd "${2:-$REPO_ROOT}" && pwd)"
CHECK_DB="${CLI_CHECK_DB:-easymo_cli_check}"
BOOTSTRAP="$PROJECT_DIR/supabase/bootstrap/supabase_compat.sql"
[ -f "$BOOTSTRAP" ] || BOOTSTRAP="$REPO_ROOT/supabase/bootstrap/supabase_compat.sql"
read -r -a CLI <<<"${SUPABASE_CLI:-npx -y supabase@3.1.0}"
# What a new hosted project has enabled (supabase/postgres tests it with
# extensions_are); pg_graphql, supabase_vault and pgjwt exist only there.
HOSTED_EXTENSIONS="plpgsql pgcrypto uuid-ossp pg_stat_statements pg_graphql supabase_vault pgjwt"

log() { printf '[check_supabase_cli] %s\n' "$*" >&2; }

[ -d "$PROJECT_DIR/supabase/migrations" ] ||
  { log "no supabase/migrations in $PROJECT_DIR"; exit 2; }
command -v psql >/dev/null || { log "psql not found (apt-get install postgresql-client-15)"; exit 2; }

# postgres://user:pass@host:port/db?query -> same URL pointing at $CHECK_DB.
if [[ "$DB_URL" =~ ^(postgres(ql)?://[^/?]+)(/[^?]*)?(\?.*)?$ ]]; then
  SERVER="${BASH_REMATCH[1]}"
  QUERY="${BASH_REMATCH[4]:-}"
else
  log "DB_URL must look like postgres://user:pass@host:port/db"
  exit 2
fi
CHECK_URL="${SERVER}/${CHECK_DB}${QUERY}"

# Loopback servers have no TLS: say so, or the CLI warns on every call.
case "$SERVER" in
  *@127.0.0.1* | *@localhost* | *@\[::1\]*) export PGSSLMODE="${PGSSLMODE:-disable}" ;;
esac
# No network but npm/apt here: keep the CLI from phoning home.
export SUPABASE_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 SUPABASE_NO_UPDATE_NOTIFIER=1

# The CLI may leave supabase/.temp behind; remove it if this run made it.
TEMP_DIR="$PROJECT_DIR/supabase/.temp"
OUT="$(mktemp)"
had_temp=0
[ -e "$TEMP_DIR" ] && had_temp=1
cleanup() {
  rm -f "$OUT"
  if [ "$had_temp" = 0 ]; then rm -rf "$TEMP_DIR"; fi
}
trap cleanup EXIT

log "recreating database $CHECK_DB"
psql -X -q -v ON_ERROR_STOP=1 "$DB_URL" \
  -c "drop database if exists \"${CHECK_DB}\" with (force)" \
  -c "create database \"${CHECK_DB}\"" >&2

log "applying $(basename "$BOOTSTRAP")"
psql -X -q -v ON_ERROR_STOP=1 "$CHECK_URL" -f "$BOOTSTRAP" >&2

sql() { psql -X -q -A -t -v ON_ERROR_STOP=1 "$CHECK_URL" -c "$1"; }

# Extensions as "name schema" lines, sorted.
extensions_now() {
  sql "select extname || ' ' || extnamespace::regnamespace from pg_extension order by 1"
}
before="$(extensions_now)"
extra="$(awk -v ok=" $HOSTED_EXTENSIONS " 'index(ok, " " $1 " ") == 0 { print $1 }' <<<"$before")"
if [ -n "$extra" ]; then
  log "the bootstrap created extensions a new hosted project does not have:" $extra
  log "create them in the migration that needs them (with schema extensions), not in the bootstrap"
  exit 1
fi
log "before the push: $(tr '\n' ',' <<<"$before" | sed 's/,$//')"

cd "$PROJECT_DIR"

log "supabase db push"
start=$(date +%s)
"${CLI[@]}" db push --workdir "$PROJECT_DIR" --remote="$CHECK_URL" --yes >&2
log "db push took $(($(date +%s) - start))s"

# Every local migration applied (db push stops at the first that fails).
local_versions="$(find supabase/migrations -maxdepth 1 -name '[0-9]*_*.sql' -printf '%f\n' |
  sed 's/_.*//' | sort)"
remote_versions="$(sql "select version from supabase_migrations.schema_migrations order by 1")"
missing="$(comm -23 <(echo "$local_versions") <(echo "$remote_versions"))"
if [ -n "$missing" ]; then
  log "migrations not applied:" $missing
  exit 1
fi
log "$(wc -l <<<"$local_versions") migrations applied"

# What the migrations created: every new extension in `extensions`.
created="$(comm -13 <(echo "$before") <(extensions_now))"
misplaced="$(awk '$2 != "extensions" { print $1 " in " $2 }' <<<"$created")"
if [ -n "$misplaced" ]; then
  log "extensions outside the extensions schema:" $misplaced
  exit 1
fi
log "the migrations created: $(awk '{ print $1 }' <<<"$created" | paste -sd, -)"

log "supabase db advisors (security + performance)"
start=$(date +%s)
if ! "${CLI[@]}" db advisors --workdir "$PROJECT_DIR" --remote="$CHECK_URL" \
  --type all --level info --output-format json >"$OUT"; then
  log "supabase db advisors failed to run"
  cat "$OUT" >&2
  exit 1
fi
log "db advisors took $(($(date +%s) - start))s"

# Judge the findings. node is there anyway (npx needs it).
node - "$OUT" <<'EOF'
const fs = require("node:fs");
const raw = fs.readFileSync(process.argv[2], "utf8");
let results;
try {
  results = JSON.parse(raw).results;
  if (!Array.isArray(results)) throw new Error("no results array");
} catch (error) {
  console.error(`[check_supabase_cli] cannot read advisors output: ${error.message}\n${raw}`);
  process.exit(1);
}
const line = (r) => `${r.level.padEnd(5)} ${r.name} [${(r.categories || []).join(",")}] ${r.detail}`;
const bad = results.filter((r) => r.level === "ERROR" || r.level === "WARN");
const info = results.filter((r) => !bad.includes(r));
const counts = {};
for (const r of info) counts[r.name] = (counts[r.name] || 0) + 1;
if (info.length) {
  console.error(`[check_supabase_cli] ${info.length} INFO finding(s): ` +
    Object.entries(counts).map(([k, v]) => `${k} x${v}`).join(", "));
  if (process.env.ADVISORS_SHOW_INFO === "1") for (const r of info) console.error(line(r));
}
if (bad.length) {
  console.log(`supabase db advisors: ${bad.length} WARN/ERROR finding(s):`);
  for (const r of bad) console.log(line(r) + (r.remediation ? `\n      see ${r.remediation}` : ""));
  process.exit(1);
}
console.log("supabase db advisors: no WARN or ERROR findings");
EOF
