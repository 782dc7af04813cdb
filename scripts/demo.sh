#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job, for now: install, build, then start a fips node on the
# packaged default config inside a throw-away network namespace and show
# what runs: the processes with their users, capabilities and seccomp mode,
# fips0 with its address and route, and the node's identity. Ctrl-C or the
# end stops the node and removes the namespace. (The mesh demo with three
# nodes arrives with the session layer, issue #6.)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "run as root (needs apt-get, a network namespace, TUN)"; exit 1; }

BUILD=${FIPS_BUILD_DIR:-build}
./scripts/install-deps.sh
echo "== building in $BUILD (the first build takes a few minutes)"
[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" --wrap-mode=nodownload >/dev/null
if ! ninja -C "$BUILD" >/tmp/fips-demo-build.log 2>&1; then
  cat /tmp/fips-demo-build.log
  exit 1
fi
rm -f /tmp/fips-demo-build.log

NS=fips-demo-$$
WORK=$(mktemp -d)
SUP=""
cleanup() {
  [ -n "$SUP" ] && kill -TERM "$SUP" 2>/dev/null && wait "$SUP" 2>/dev/null
  ip netns del "$NS" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo; echo "== interrupted"; exit 130' INT TERM

ip netns add "$NS"
ip -n "$NS" link set lo up
cp packaging/fips.yaml "$WORK/fips.yaml"
echo "== starting fips -c packaging/fips.yaml in network namespace $NS"
ip netns exec "$NS" "$BUILD/fips" -c "$WORK/fips.yaml" 2>"$WORK/log" &
SUP=$!
for _ in $(seq 100); do
  ip -n "$NS" -6 route show dev fips0 2>/dev/null | grep -q fd00 && break
  sleep 0.05
done
sleep 0.3
sed 's/^/   log| /' "$WORK/log"

echo
echo "== processes (supervisor $SUP and its children)"
printf '%-8s %-18s %-8s %-18s %-10s %-8s\n' PID COMMAND USER CapEff NoNewPrivs Seccomp
for pid in "$SUP" $(pgrep -P "$SUP"); do
  st=/proc/$pid/status
  printf '%-8s %-18s %-8s %-18s %-10s %-8s\n' "$pid" "$(cat /proc/$pid/comm)" \
    "$(ps -o user= -p "$pid")" "$(awk '/^CapEff/ {print $2}' $st)" \
    "$(awk '/^NoNewPrivs/ {print $2}' $st)" "$(awk '/^Seccomp:/ {print $2}' $st)"
done

echo
echo "== fips0"
ip -n "$NS" -6 addr show dev fips0
ip -n "$NS" -6 route show dev fips0
ip -n "$NS" -6 rule show | grep fd00 || true

echo
echo "== identity (fipsctl identity --key-file fips.key)"
"$BUILD/ctl/fipsctl" identity --key-file "$WORK/fips.key"

echo
echo "== stopping (SIGTERM)"
kill -TERM "$SUP"
wait "$SUP" && echo "supervisor exited 0"
SUP=""
ip -n "$NS" link show fips0 >/dev/null 2>&1 && echo "fips0 still present!" || echo "fips0 removed"
