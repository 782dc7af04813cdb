#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Tor transport's control-port client (transports/tor/tor-control-client.h,
# driven by tests/tools/tor-control-probe) against a real tor started with
# DisableNetwork 1 in a namespace with only loopback (issue #14):
#   - cookie auth (tor offers SAFECOOKIE) over TCP and over the unix socket:
#     the status GETINFOs (version, bootstrap, liveness, traffic)
#   - ADD_ONION works with DisableNetwork 1; the first start makes the key
#     file (mode 0600, one ED25519-V3 line), the second reuses it
#   - after tor is restarted with a fresh DataDirectory, the saved key gives
#     the same onion address
#   - password auth on a tor with HashedControlPassword; a wrong password and
#     a missing state directory fail with their reasons, and no key is made
#     for a directory that cannot keep it
#   - packaging/tor/torrc.fips passes tor --verify-config
#
#   ns tor-ctl-PID: tor (cookie) ControlPort 127.0.0.1:9051 + ControlSocket;
#   tor (password) ControlPort 127.0.0.1:9061
set -u
BUILD=${1:?usage: tor-control-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v tor >/dev/null || { echo "SKIP: needs Debian's tor (scripts/install-deps.sh)"; exit 77; }
PROBE=$BUILD/tests/tools/tor-control-probe
[ -x "$PROBE" ] || { echo "FAIL - $PROBE not built"; exit 1; }

NS=tor-ctl-$$
netns_add "$NS"
netns_workdir
chmod 700 "$WORK"
mkdir -p "$WORK/state"

# start_tor NAME LINE...: tor NAME (DataDirectory WORK/NAME.data) with the
# lines; without meson's MALLOC_PERTURB_ (see tests/lib/tor-net.sh).
start_tor() {
  local name=$1
  shift
  {
    echo "DataDirectory $WORK/$name.data"
    echo "DisableNetwork 1"
    echo "SocksPort 0"
    echo "Log notice file $WORK/$name.log"
    printf '%s\n' "$@"
  } >"$WORK/$name.torrc"
  ip netns exec "$NS" env -u MALLOC_PERTURB_ tor --defaults-torrc /dev/null -f "$WORK/$name.torrc" \
    >/dev/null 2>&1 &
  echo $! >"$WORK/$name.pid"
  disown
}
# stop_tor NAME: TERM, and wait until its control port is gone.
stop_tor() {
  kill "$(cat "$WORK/$1.pid")" 2>/dev/null
  wait_until 10 bash -c "! kill -0 $(cat "$WORK/$1.pid") 2>/dev/null"
}
control_up() { grep -q "Opened Control listener" "$WORK/$1.log" 2>/dev/null; }
probe() { ip netns exec "$NS" "$PROBE" "$@" >"$WORK/out" 2>"$WORK/err"; }
out_has() { grep -qxF "$1" "$WORK/out" || { echo "  out: $(tr '\n' ' ' <"$WORK/out")"; return 1; }; }
err_has() { grep -qF "$1" "$WORK/err" || { echo "  err: $(cat "$WORK/err")"; return 1; }; }
onion_of() { sed -n 's/^onion=//p' "$WORK/out"; }
KEY=$WORK/state/tor-onion.key
COOKIE_TOR=("ControlPort 127.0.0.1:9051" "ControlSocket $WORK/control" "CookieAuthentication 1")

start_tor cookie "${COOKIE_TOR[@]}"
check "tor (DisableNetwork 1) opened its control port" wait_until 30 control_up cookie

probe 127.0.0.1:9051 cookie status
check "status over TCP with cookie auth: exit 0" [ $? -eq 0 ]
check "status: tor's version" grep -q "^version=0\.4\." "$WORK/out"
check "status: bootstrap phase 0 (network disabled)" out_has "bootstrap=0"
check "status: network liveness down" out_has "network_liveness=down"
check "status: no circuit" out_has "circuit_established=0"
probe "$WORK/control" cookie status
check "status over the unix control socket" grep -q "^version=0\.4\." "$WORK/out"

probe "$WORK/control" cookie add-onion "$WORK/missing/tor-onion.key" 443,127.0.0.1:8443
check "a state directory that is missing: refused before tor makes a key" \
  err_has "cannot create $WORK/missing/tor-onion.key.new"

probe 127.0.0.1:9051 cookie add-onion "$KEY" 443,127.0.0.1:8443
check "ADD_ONION NEW with DisableNetwork 1: key created" out_has "key=created"
FIRST=$(onion_of)
check "an onion v3 address came back" bash -c "[[ '$FIRST' =~ ^[a-z2-7]{56}\.onion$ ]]"
check "key file mode 0600" [ "$(stat -c %a "$KEY")" = 600 ]
check "key file holds one ED25519-V3 line" grep -qxE 'ED25519-V3:[A-Za-z0-9+/]{86}==' "$KEY"
cp "$KEY" "$WORK/key.orig"

probe 127.0.0.1:9051 cookie add-onion "$KEY" 443,127.0.0.1:8443
check "second start: the saved key is reused" out_has "key=reused"
check "second start: same onion address" [ "$(onion_of)" = "$FIRST" ]

stop_tor cookie
rm -rf "$WORK/cookie.data"
: >"$WORK/cookie.log"
start_tor cookie "${COOKIE_TOR[@]}"
check "tor restarted with a fresh DataDirectory" wait_until 30 control_up cookie
probe "$WORK/control" cookie add-onion "$KEY" 443,127.0.0.1:8443
check "after tor's restart: key reused" out_has "key=reused"
check "after tor's restart: same onion address" [ "$(onion_of)" = "$FIRST" ]
check "the key file is unchanged" cmp -s "$KEY" "$WORK/key.orig"

HASH=$(tor --quiet --hash-password "s3cret pass" | tail -n 1)
start_tor password "ControlPort 127.0.0.1:9061" "HashedControlPassword $HASH"
check "tor with a control password up" wait_until 30 control_up password
probe 127.0.0.1:9061 "password:s3cret pass" status
check "status with password auth" grep -q "^version=0\.4\." "$WORK/out"
probe 127.0.0.1:9061 "password:wrong" status
check "wrong password: refused with tor's reason" err_has "AUTHENTICATE refused: 515"
probe 127.0.0.1:9061 cookie status
check "cookie auth against a password-only tor: reason" err_has "tor offers no cookie authentication"

# packaging/tor/torrc.fips is a valid torrc with Debian's service defaults
# (its HiddenServiceDir moved into WORK).
sed "s|/var/lib/tor/fips_onion_service|$WORK/hs|" "$(dirname "$0")/../../packaging/tor/torrc.fips" \
  >"$WORK/torrc.fips"
check "packaging/tor/torrc.fips passes tor --verify-config" \
  ip netns exec "$NS" tor --verify-config --defaults-torrc /usr/share/tor/tor-service-defaults-torrc \
  -f "$WORK/torrc.fips" >/dev/null
finish
