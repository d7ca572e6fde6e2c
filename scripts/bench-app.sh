#!/usr/bin/env bash
# Measures the real app (see src-tauri/src/bench.rs): time from the process start to the
# UI's first snapshot request, RSS when idle and while the computer thinks, and the IPC
# round trip (get_snapshot) idle and while the computer thinks.
#   scripts/bench-app.sh [BINARY]      default: target/debug/tengen-app
# Build the binary with the UI embedded first: `npx tauri build --debug --no-bundle
# --features bench` (or `npx tauri build --no-bundle --features bench` for release). TENGEN_BENCH_LEVEL picks the Gomoku level
# that thinks during the measurement (default: master).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/debug/tengen-app}"
data="$(mktemp -d)"
export XDG_DATA_HOME="$data" # a fresh data directory: no saved game or settings
xvfb=""
if [ -z "${DISPLAY:-}" ]; then
  Xvfb :97 -screen 0 1280x900x24 >/dev/null 2>&1 &
  xvfb=$!
  export DISPLAY=:97
  sleep 1
fi
TENGEN_BENCH=1 TENGEN_BENCH_LEVEL="${TENGEN_BENCH_LEVEL:-master}" timeout 120 "$bin" 2>/dev/null \
  | grep '^TENGEN_BENCH' || echo "no report (did the UI load?)"
[ -n "$xvfb" ] && kill "$xvfb"
rm -rf "$data"
