#!/usr/bin/env bash
# End-to-end tests in the real app: builds the debug app (embedding ui/), starts Xvfb on a free
# display and tauri-driver (which runs WebKitWebDriver), then runs tests/e2e/ with Node's test
# runner. Settings and saved games go to a throw-away data directory. Every process started
# here is stopped on exit. Exits non-zero when anything fails.
#   TENGEN_APP=path   test an already built app binary instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

log() { printf '\033[1m[e2e]\033[0m %s\n' "$*"; }
die() { log "$*"; exit 1; }

driver_bin="$(command -v tauri-driver || true)"
[ -n "$driver_bin" ] || driver_bin="$HOME/.cargo/bin/tauri-driver"
[ -x "$driver_bin" ] || die "tauri-driver not found (scripts/setup.sh test installs it)"
webkit_driver="$(command -v WebKitWebDriver || echo /usr/bin/WebKitWebDriver)"
[ -x "$webkit_driver" ] || die "WebKitWebDriver not found (package webkit2gtk-driver)"
command -v Xvfb >/dev/null || die "Xvfb not found (package xvfb)"
[ -d node_modules/@tauri-apps/cli ] || npm install --no-audit --no-fund

pids=()
tmp="$(mktemp -d)"
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT INT TERM

# TENGEN_APP=/path/to/tengen-app skips the build and tests that binary instead.
if [ -n "${TENGEN_APP:-}" ]; then
  app="$TENGEN_APP"
else
  log "building the app (debug, no bundle)"
  npx tauri build --debug --no-bundle
  app="$root/target/debug/tengen-app"
fi
[ -x "$app" ] || die "no app binary at $app"

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

display=""
for n in $(seq 90 140); do
  if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || die "no free X display"
log "Xvfb on $display"
Xvfb "$display" -screen 0 1280x900x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
export DISPLAY="$display"

# A private data directory: the tests start from default settings and no saved game.
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
export WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1

port="$(free_port)"
native_port="$(free_port)"
while [ "$native_port" = "$port" ]; do native_port="$(free_port)"; done
log "tauri-driver on port $port"
"$driver_bin" --port "$port" --native-port "$native_port" --native-driver "$webkit_driver" >"$tmp/driver.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/status" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/status" >/dev/null 2>&1 || { cat "$tmp/driver.log"; die "tauri-driver did not start"; }

log "running tests/e2e"
status=0
TENGEN_APP="$app" WEBDRIVER_URL="http://127.0.0.1:$port" node --test --test-concurrency=1 tests/e2e/*.test.mjs || status=$?
if [ "$status" -ne 0 ]; then
  log "tauri-driver log (last lines):"
  tail -n 40 "$tmp/driver.log" || true
fi
exit "$status"
