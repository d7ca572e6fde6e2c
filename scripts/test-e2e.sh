#!/usr/bin/env bash
# End-to-end tests in the real app: starts Xvfb on a free display and tauri-driver (which runs
# WebKitWebDriver), then runs tests/e2e/ with Node's test runner. Settings and saved games go
# to a throw-away data directory. Every process started here is stopped on exit. Exits
# non-zero when anything fails.
#   TENGEN_APP=path   the app binary to test, built with the UI embedded (feature
#                     custom-protocol); scripts/test.sh passes the one its `cargo test` built.
#                     Unset: builds target/debug/tengen-app first.
# Arguments: the test files to run (default: every tests/e2e/*.test.mjs), e.g.
#   TENGEN_APP=$PWD/target/debug/tengen-app bash scripts/test-e2e.sh tests/e2e/study.test.mjs
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

log() { printf '\033[1m[e2e]\033[0m %s\n' "$*"; }
die() { log "$*"; exit 1; }

[ -d node_modules/@tauri-apps/cli ] || npm install --no-audit --no-fund

if [ -n "${TENGEN_APP:-}" ]; then
  app="$TENGEN_APP"
else
  log "building the app (debug, UI embedded)"
  cargo build -p tengen-app --features tengen-app/custom-protocol
  app="$root/target/debug/tengen-app"
fi
[ -x "$app" ] || die "no app binary at $app"

source scripts/display-driver.sh
start_display

# A private data directory: the tests start from default settings and no saved game.
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
export WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1
start_driver

log "running tests/e2e"
status=0
files=("$@")
[ "${#files[@]}" -gt 0 ] || files=(tests/e2e/*.test.mjs)
TENGEN_APP="$app" node --test --test-concurrency=1 "${files[@]}" || status=$?
if [ "$status" -ne 0 ]; then
  log "tauri-driver log (last lines):"
  tail -n 40 "$tmp/driver.log" || true
fi
exit "$status"
