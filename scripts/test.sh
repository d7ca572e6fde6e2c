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

step "cargo test"
cargo test --workspace

step "browser tests (Chromium, mocked IPC)"
bash scripts/test-ui.sh

step "end-to-end tests (the real app under Xvfb, tauri-driver + WebKitWebDriver)"
bash scripts/test-e2e.sh

echo
echo "all checks passed"
