#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Tor transport's SOCKS5 client (transports/tor/socks5-io.h, driven by
# tests/tools/socks5-dial) against a real SOCKS5 server, Debian's microsocks
# (issue #14). The client's namespace cannot resolve echo.test; only the
# proxy's can (its /etc/netns hosts file), so a tunnel to echo.test shows the
# name went to the proxy, never resolved by the client.
#   - by name, no auth: echo through the tunnel
#   - by IPv4, user/password (RFC 1929): echo through the tunnel
#   - wrong password, no credentials for a proxy that wants them, a closed
#     port behind the proxy, no proxy at all: each fails with its reason
#
#   ns tor-s5c-PID (client, 10.97.0.1) -- veth -- ns tor-s5p-PID (10.97.0.2:
#   microsocks :1080 no auth, :1081 user fips/secret; socat echo 127.0.0.1:7000)
set -u
BUILD=${1:?usage: socks5-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v microsocks >/dev/null || { echo "SKIP: needs microsocks (scripts/install-deps.sh)"; exit 77; }
DIAL=$BUILD/tests/tools/socks5-dial
[ -x "$DIAL" ] || { echo "FAIL - $DIAL not built"; exit 1; }

C=tor-s5c-$$
P=tor-s5p-$$
netns_add "$C"
netns_add "$P"
mkdir -p "/etc/netns/$P"
printf '127.0.0.1 localhost\n127.0.0.1 echo.test\n' >"/etc/netns/$P/hosts"
CLEANUPS+=("rm -rf /etc/netns/$P")
ip link add "s5c-$$" netns "$C" type veth peer name "s5p-$$" netns "$P"
ip -n "$C" addr add 10.97.0.1/24 dev "s5c-$$"
ip -n "$P" addr add 10.97.0.2/24 dev "s5p-$$"
ip -n "$C" link set "s5c-$$" up
ip -n "$P" link set "s5p-$$" up

ip netns exec "$P" socat TCP-LISTEN:7000,bind=127.0.0.1,fork,reuseaddr EXEC:cat >/dev/null 2>&1 &
disown
ip netns exec "$P" microsocks -i 10.97.0.2 -p 1080 >/dev/null 2>&1 &
disown
ip netns exec "$P" microsocks -i 10.97.0.2 -p 1081 -u fips -P secret >/dev/null 2>&1 &
disown
port_open() { ip netns exec "$P" bash -c "exec 3<>/dev/tcp/10.97.0.2/$1" 2>/dev/null; }
check "microsocks listening" wait_until 10 port_open 1081
check "echo server listening" wait_until 10 bash -c "ip netns exec $P bash -c 'exec 3<>/dev/tcp/127.0.0.1/7000' 2>/dev/null"

# dial PROXY_PORT TARGET [ARGS...]: one line through the tunnel; output in $WORK_OUT, stderr in $WORK_ERR.
OUT=$(mktemp)
ERR=$(mktemp)
CLEANUPS+=("rm -f $OUT $ERR")
dial() {
  local port=$1 target=$2
  shift 2
  echo "fips over socks5" | ip netns exec "$C" timeout 20 "$DIAL" "10.97.0.2:$port" "$target" \
    --timeout-ms 5000 "$@" >"$OUT" 2>"$ERR"
}
echoed() { [ "$(cat "$OUT")" = "fips over socks5" ]; }
said() { grep -qF "$1" "$ERR" || { echo "  stderr: $(cat "$ERR")"; return 1; }; }

check "the client's namespace cannot resolve echo.test" \
  bash -c "! ip netns exec $C getent hosts echo.test >/dev/null"
dial 1080 echo.test:7000
check "by name through the proxy, no auth: echoed" echoed
dial 1081 127.0.0.1:7000 --auth fips:secret
check "by IPv4 with user/password: echoed" echoed
dial 1081 echo.test:7000 --auth fips:wrong
check "wrong password: exit 1" [ $? -eq 1 ]
check "wrong password: reason" said "proxy rejected the user name and password"
dial 1081 echo.test:7000
check "no credentials for an auth proxy: reason" said "proxy accepts none of our auth methods"
dial 1080 127.0.0.1:7001
check "closed port behind the proxy: reason" said "connection refused (REP 0x05)"
dial 1099 echo.test:7000
check "no proxy listening: reason" said "I/O error on the proxy connection: Connection refused"
finish
