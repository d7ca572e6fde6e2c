#!/usr/bin/env bash
# The one start command (`npm start`): installs what is missing, then builds and opens the app.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh app
npx tauri dev
