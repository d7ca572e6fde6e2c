#!/usr/bin/env bash
# Measures the real app the way a user feels it (scripts/bench-app.mjs): time to the first
# paint and to the board drawn (warm and with an empty cache), CPU and PSS of every process of
# the app idle and while Master thinks, IPC round trips idle and while Master thinks, the size
# of snapshots and progress events, the delay from a click to the player's stone and to the
# backend's confirmation (the first click of a session apart from the later ones, with the time
# the page's click handlers took), and the CPU at rest again after the clicks.
#   scripts/bench-app.sh [BINARY]      default: target/release/tengen-app
#   scripts/bench-app.sh OLD NEW ...   the starts only, the builds alternating (A/B)
# Build the binary with the UI embedded first:
#   cargo build --release -p tengen-app --features tengen-app/custom-protocol,tengen-app/bench
# (drop `,tengen-app/bench` on a tree without that feature; it adds the in-app report below).
# BENCH_RUNS sets how many cold and warm starts are timed (default 3; with several builds, of
# each); BENCH_ONLY=start stops after them; BENCH_AB=1 adds side-by-side runs with and without
# the animations (and with the thinking animations in steps). The report is JSON on stdout
# (`summary`: the medians of the starts, wall time and CPU to the board drawn). Runs under
# its own Xvfb, tauri-driver and a throw-away data directory.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[bench]\033[0m %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

app="$(realpath "${1:-target/release/tengen-app}")"
[ -x "$app" ] || die "no app binary at $app (see the build command at the top of this script)"
apps="$app"
for other in "${@:2}"; do
  [ -x "$other" ] || die "no app binary at $other"
  apps="$apps:$(realpath "$other")"
done

source scripts/display-driver.sh
start_display
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME"
start_driver

TENGEN_APPS="$apps" node scripts/bench-app.mjs
[ "$apps" = "$app" ] || exit 0

# The app's own report (src-tauri/src/bench.rs), when the binary has it: time to the UI's
# first snapshot request, RSS, and IPC round trips measured inside the app.
rm -rf "$XDG_DATA_HOME" && mkdir -p "$XDG_DATA_HOME"
log "in-app report (TENGEN_BENCH=1)"
TENGEN_BENCH=1 TENGEN_BENCH_LEVEL="${TENGEN_BENCH_LEVEL:-master}" timeout 120 "$app" 2>/dev/null \
  | grep '^TENGEN_BENCH' || log "no in-app report (a binary without the bench feature)"
