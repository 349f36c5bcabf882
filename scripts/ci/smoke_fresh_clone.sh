#!/usr/bin/env bash
# A fresh clone starts with nothing but the README's commands (issue 10, item 1).
#
# Exports the committed tree (no .data/, no node_modules/) into a temporary
# folder, runs `deno task dev` there on a free PORT, waits until the tools
# function answers a real listing to a dev token, then runs `deno task tools
# users`, a piped `deno task chat` and one `deno task scenarios` against it, and
# stops the server. Nothing is left running: the server runs in its own process
# group, which is killed on any exit.
#
#   bash scripts/ci/smoke_fresh_clone.sh [DENO_COMMAND...]   (default: npx -y deno@2.9.6)
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "$#" -gt 0 ]; then DENO=("$@"); else DENO=(npx -y deno@2.9.6); fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/easymo-fresh-XXXXXX")"
SERVER_PID=""

stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
cleanup() {
  stop_server
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
  echo "smoke: $*" >&2
  echo "--- dev server log ---" >&2
  tail -n 40 "$WORK/dev.log" >&2 || true
  exit 1
}

# A free port: the first of a random run that nothing listens on.
PORT=""
for _ in $(seq 1 50); do
  candidate=$((20000 + RANDOM % 20000))
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then PORT="$candidate"; break; fi
done
[ -n "$PORT" ] || fail "no free port found"

mkdir -p "$WORK/repo"
git archive --format=tar HEAD | tar -x -C "$WORK/repo"
[ ! -e "$WORK/repo/.data" ] || fail "the exported tree has a .data folder"
cd "$WORK/repo"

# Only what the README sets: no data folder, secret or database from the caller's environment.
unset EASYMO_DATA_DIR EASYMO_SECRET DATABASE_URL SUPABASE_DB_URL OPENAI_API_KEY
export PORT NO_COLOR=1
BASE="http://127.0.0.1:$PORT"

echo "smoke: deno task dev on a fresh tree, PORT=$PORT" >&2
setsid "${DENO[@]}" task dev >"$WORK/dev.log" 2>&1 &
SERVER_PID=$!

# Up to 5 minutes: the first start installs node_modules and migrates the embedded database.
# The token is taken once (`deno task tools token` signs it from the data folder's secret and seeded
# users, which do not change while the server runs); then only curl polls: each `npx -y deno@2.9.6`
# start costs 1.4-3.5 CPU-s, and the server may take many seconds after writing its users to serve.
listed=""
TOKEN=""
polls=0
for _ in $(seq 1 300); do
  kill -0 "$SERVER_PID" 2>/dev/null || fail "deno task dev exited"
  # The server writes the seeded users once its database is ready.
  if [ -f .data/dev_users.json ]; then
    [ -n "$TOKEN" ] ||
      TOKEN="$("${DENO[@]}" task -q tools token --phone +250788000001 2>/dev/null || true)"
    if [ -n "$TOKEN" ]; then
      polls=$((polls + 1))
      listed="$(curl -fsS -H "authorization: Bearer $TOKEN" \
        "$BASE/functions/v1/tools?format=openai&agent=pharmacy" 2>/dev/null || true)"
      case "$listed" in *'"ok":true'*inventory_check*) break ;; esac
    fi
  fi
  sleep 1
done
case "$listed" in *'"ok":true'*inventory_check*) ;; *) fail "the tools function never listed tools" ;; esac
echo "smoke: tools function lists the pharmacy agent's tools (one token, $polls polls)" >&2

users="$("${DENO[@]}" task -q tools users)" || fail "deno task tools users failed"
grep -q "+250788000001" <<<"$users" || fail "deno task tools users does not list the seeded buyer"
echo "smoke: deno task tools users lists the seeded people" >&2

chat="$(printf 'hi\n/quit\n' | "${DENO[@]}" task -q chat --phone +250788000001)" ||
  fail "deno task chat failed: $chat"
grep -q "> hi" <<<"$chat" || fail "deno task chat did not send the piped line: $chat"
echo "smoke: deno task chat answers a piped conversation" >&2

stop_server

# One scenario that reads a photo (tesseract's language data from a fresh node_modules), takes a
# payment and renders a PDF: the command works on a fresh tree. Every scenario is played by the
# test suite (testing/scenarios*_test.ts), twice in CI; all of them here again cost ~90 CPU-s.
"${DENO[@]}" task -q scenarios --filter insurance_carte_jaune_certificate \
  >"$WORK/scenarios.log" 2>&1 ||
  { tail -n 40 "$WORK/scenarios.log" >&2; fail "deno task scenarios failed"; }
grep -q "(1/1 scenarios)" "$WORK/scenarios.log" ||
  { tail -n 40 "$WORK/scenarios.log" >&2; fail "deno task scenarios played no scenario"; }
echo "smoke: deno task scenarios plays a photo-to-certificate scenario" >&2
echo "smoke: a fresh clone works with the README's commands" >&2
