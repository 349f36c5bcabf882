#!/usr/bin/env bash
# Install Debian's Chromium for the browser (end-to-end) tests, if it is missing,
# and print its version. Playwright's own browser download does not work on the
# build machines; the tests drive this Chromium through playwright-core instead.
#
#   scripts/ci/install_chromium.sh
#   CHROMIUM_PATH=/usr/bin/chromium scripts/ci/install_chromium.sh
#
# Needs root (or sudo) only when it has to install.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

log() { printf '[install_chromium] %s\n' "$*" >&2; }

if [ ! -x "$CHROMIUM" ]; then
  SUDO=()
  if [ "$(id -u)" != 0 ]; then SUDO=(sudo); fi
  log "installing Debian's chromium (missing: $CHROMIUM)"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq >&2
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends chromium >&2
fi

if [ ! -x "$CHROMIUM" ]; then
  log "chromium is still missing at $CHROMIUM"
  exit 1
fi

"$CHROMIUM" --version
