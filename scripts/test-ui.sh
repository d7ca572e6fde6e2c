#!/usr/bin/env bash
# Browser tests of the UI: Node's test runner drives Debian's Chromium (playwright-core) against
# ui/ served by a tiny static server, with the Tauri IPC replaced by a mock. Screenshots go to
# tests/artifacts/. Exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules/playwright-core ] || npm install --no-audit --no-fund
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  echo "test-ui: Chromium not found at $CHROMIUM (scripts/setup.sh test installs it)" >&2
  exit 1
fi
node --test tests/ui/*.test.mjs
