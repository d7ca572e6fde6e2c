# Sourced by scripts/test-e2e.sh and scripts/bench-app.sh. Gives a scratch directory $tmp,
# start_display (Xvfb on a free display; exports DISPLAY) and start_driver (tauri-driver, which
# runs WebKitWebDriver, on a free port; exports WEBDRIVER_URL; the apps it starts inherit the
# environment of this call). Every process in `pids` is stopped and $tmp removed on exit.
# Needs log() and die().

driver_bin="$(command -v tauri-driver || true)"
[ -n "$driver_bin" ] || driver_bin="$HOME/.cargo/bin/tauri-driver"
[ -x "$driver_bin" ] || die "tauri-driver not found (scripts/setup.sh test installs it)"
webkit_driver="$(command -v WebKitWebDriver || echo /usr/bin/WebKitWebDriver)"
[ -x "$webkit_driver" ] || die "WebKitWebDriver not found (package webkit2gtk-driver)"
command -v Xvfb >/dev/null || die "Xvfb not found (package xvfb)"

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

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

start_display() {
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
}

start_driver() {

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
export WEBDRIVER_URL="http://127.0.0.1:$port"
}
