#!/usr/bin/env bash
# Installs what Tengen needs on a fresh Debian/Ubuntu machine, skipping what is already there.
#   scripts/setup.sh app    system libraries for building and running the app, and npm packages
#   scripts/setup.sh test   the above, plus what the tests use (Xvfb, WebKitWebDriver, Chromium,
#                           ImageMagick, tauri-driver)
set -euo pipefail
mode="${1:-app}"
cd "$(dirname "$0")/.."

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

app_pkgs=(libwebkit2gtk-4.1-dev build-essential file libxdo-dev libssl-dev
          libayatana-appindicator3-dev librsvg2-dev pkg-config)
test_pkgs=(xvfb webkit2gtk-driver chromium imagemagick xauth dbus-x11 fonts-wqy-microhei)

want=("${app_pkgs[@]}")
[ "$mode" = test ] && want+=("${test_pkgs[@]}")

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    log "missing system packages: ${missing[*]} (install them with your package manager)"
    exit 1
  fi
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  # Debian's docker-clean hook deletes downloaded .debs after each dpkg run, which breaks
  # large installs halfway; a config file that clears the hook avoids that.
  conf="$(mktemp)"
  echo '#clear DPkg::Post-Invoke;' > "$conf"
  log "installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -c "$conf" install -y -qq --no-install-recommends "${missing[@]}"
  rm -f "$conf"
else
  log "system packages: all present"
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm ci"
  npm ci --no-audit --no-fund
else
  log "npm packages: up to date"
fi

if [ "$mode" = test ]; then
  if ! command -v tauri-driver >/dev/null && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
    log "cargo install tauri-driver"
    cargo install tauri-driver --version '^2' --locked
  else
    log "tauri-driver: present"
  fi
fi
log "done"
