#!/usr/bin/env bash
# The one test command (`npm test`): installs what is missing, then runs every check.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

# With the UI embedded (custom-protocol), this also builds the app binary the end-to-end tests
# drive, so the app is compiled once.
step "cargo test"
cargo test --workspace --features tengen-app/custom-protocol

step "browser tests (Chromium, mocked IPC)"
bash scripts/test-ui.sh

step "end-to-end tests (the real app under Xvfb, tauri-driver + WebKitWebDriver)"
TENGEN_APP="$PWD/target/debug/tengen-app" bash scripts/test-e2e.sh

echo
echo "all checks passed"
