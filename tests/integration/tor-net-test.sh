#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The private Tor network of tests/lib/tor-net.sh comes up in one namespace
# with no route out (issue #14): three authorities and two relays, an onion
# service tor (HiddenServiceDir) forwarding port 80 to a python3 http.server,
# and a client tor whose SocksPort curl uses (--socks5-hostname, so the
# .onion name goes to tor), then the transport's own SOCKS5 client
# (tests/tools/socks5-dial --isolate: user "fips", password "<onion>:80").
# Then control_port mode: ADD_ONION on the onion service tor's control port
# (tests/tools/tor-control-probe), and the new service fetched the same way;
# the onion service tor restarts, and ADD_ONION with the saved key brings
# back the same address, fetched again.
# Prints when each tor bootstrapped, when the
# descriptor upload began and the seconds from the test start to the first fetch.
#
#   ns tor-net-PID: auth0-2, relay0-1, hs, client; http.server 127.0.0.1:8080
#   TOR_NET_SECONDS: how long to wait for the first fetch (default 180; the
#   later ones get 60 s each: within meson's 420 s)
set -u
BUILD=${1:?usage: tor-net-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
. "$(dirname "$0")/../lib/tor-net.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
if ! command -v tor >/dev/null || ! command -v tor-gencert >/dev/null; then
  echo "SKIP: needs Debian's tor (scripts/install-deps.sh)"
  exit 77
fi
LIMIT=${TOR_NET_SECONDS:-180}
# The later fetches (services added to a running network) get this long.
LATER=60

netns_workdir
T0=$(date +%s%N)
# since_start: seconds since T0, one decimal.
since_start() { echo "scale=1; ($(date +%s%N) - $T0) / 1000000000" | bc; }

tor_net_start "tor-net-$$" "$WORK/tor" || { echo "FAIL - tor_net_start"; exit 1; }
check "no route out of the namespace" \
  bash -c "! ip -n tor-net-$$ route get 192.0.2.1 >/dev/null 2>&1"

mkdir -p "$WORK/www"
head -c 65536 /dev/urandom >"$WORK/www/blob"
ip netns exec "tor-net-$$" python3 -m http.server --bind 127.0.0.1 --directory "$WORK/www" 8080 \
  >"$WORK/http.log" 2>&1 &
disown

tor_net_tor hs "HiddenServiceDir $WORK/tor/hs/service" "HiddenServicePort 80 127.0.0.1:8080" \
  "ControlPort 127.0.0.1:9151" "CookieAuthentication 1"
tor_net_tor client "SocksPort 127.0.0.1:9050 ExtendedErrors"

hostname_file="$WORK/tor/hs/service/hostname"
check "onion service hostname written" wait_until 20 test -s "$hostname_file"
ONION=$(cat "$hostname_file" 2>/dev/null)

# fetch: one curl of the blob over the client's SocksPort, compared.
fetch() {
  ip netns exec "tor-net-$$" curl -sS --max-time 30 --socks5-hostname 127.0.0.1:9050 \
    -o "$WORK/got" "http://$ONION/blob" 2>>"$WORK/curl.err" && cmp -s "$WORK/got" "$WORK/www/blob"
}
fetched=""
deadline=$(($(date +%s) + LIMIT))
while [ "$(date +%s)" -lt "$deadline" ]; do
  if fetch; then fetched=$(since_start); break; fi
  sleep 1
done
check "64 KiB fetched from the onion service through the client's SocksPort" [ -n "$fetched" ]

# dial_onion: an HTTP/1.0 GET of the blob through socks5-dial; the body compared.
dial_onion() {
  printf 'GET /blob HTTP/1.0\r\n\r\n' | ip netns exec "tor-net-$$" \
    "$BUILD/tests/tools/socks5-dial" 127.0.0.1:9050 "$ONION:80" --isolate --timeout-ms 30000 \
    >"$WORK/dialed" 2>"$WORK/dial.err" || { cat "$WORK/dial.err"; return 1; }
  tail -c 65536 "$WORK/dialed" | cmp -s - "$WORK/www/blob"
}
check "the same through the transport's SOCKS5 client (isolation credentials)" dial_onion
# A well-formed name whose checksum is wrong: tor's extended reply code.
ip netns exec "tor-net-$$" "$BUILD/tests/tools/socks5-dial" 127.0.0.1:9050 \
  "$(printf 'a%.0s' {1..56}).onion:80" --isolate </dev/null 2>"$WORK/dial.err"
check "a bad onion address is refused with tor's REP 0xf6" \
  grep -q "invalid onion address (REP 0xf6)" "$WORK/dial.err"

# control_port mode: the hs tor makes a second onion service with ADD_ONION
# (key saved in the state dir), held while the probe keeps its connection.
mkdir -p "$WORK/state"
ip netns exec "tor-net-$$" "$BUILD/tests/tools/tor-control-probe" 127.0.0.1:9151 cookie \
  add-onion "$WORK/state/tor-onion.key" 80,127.0.0.1:8080 --hold-ms 200000 \
  >"$WORK/add-onion.out" 2>&1 &
disown
check "ADD_ONION answered with an onion address" \
  wait_until 20 grep -q '^onion=' "$WORK/add-onion.out"
ADDED=$(sed -n 's/^onion=//p' "$WORK/add-onion.out")
added_at=$(date +%s%N)
ONION=$ADDED
added_fetched=""
deadline=$(($(date +%s) + LATER))
while [ -n "$ADDED" ] && [ "$(date +%s)" -lt "$deadline" ]; do
  if fetch; then added_fetched=$(echo "scale=1; ($(date +%s%N) - $added_at) / 1000000000" | bc); break; fi
  sleep 1
done
check "the ADD_ONION service is reachable through the network" [ -n "$added_fetched" ]

# The onion service tor restarts: the saved key gives the same address, reachable again.
boots=$(grep -c "Bootstrapped 100%" "$(tor_net_log hs)")
tor_net_stop hs
tor_net_launch hs
# Booted again: its log says so, or its control port answers bootstrap 100
# (authoritative; the log line was missed once on a loaded machine).
booted_again() {
  [ "$(grep -c "Bootstrapped 100%" "$(tor_net_log hs)")" -gt "$boots" ] ||
    ip netns exec "tor-net-$$" "$BUILD/tests/tools/tor-control-probe" 127.0.0.1:9151 cookie status \
      2>/dev/null | grep -qx 'bootstrap=100'
}
check "hs tor restarted and bootstrapped" wait_until 60 booted_again
booted_again || tor_net_dump
ip netns exec "tor-net-$$" "$BUILD/tests/tools/tor-control-probe" 127.0.0.1:9151 cookie \
  add-onion "$WORK/state/tor-onion.key" 80,127.0.0.1:8080 --hold-ms 200000 \
  >"$WORK/add-onion.out" 2>&1 &
disown
check "after the restart ADD_ONION reuses the saved key" \
  wait_until 20 grep -qx 'key=reused' "$WORK/add-onion.out"
check "after the restart the onion address is the same" \
  grep -qx "onion=$ADDED" "$WORK/add-onion.out"
readded_at=$(date +%s%N)
refetched=""
deadline=$(($(date +%s) + LATER))
while [ "$(date +%s)" -lt "$deadline" ]; do
  if fetch; then refetched=$(echo "scale=1; ($(date +%s%N) - $readded_at) / 1000000000" | bc); break; fi
  sleep 1
done
check "the same onion is reachable again after the restart" [ -n "$refetched" ]

# first_seen NAME LOG PATTERN: the time of the first line of NAME's LOG
# (notice or info) matching PATTERN.
first_seen() { grep -m1 "$3" "$WORK/tor/$1/$2.log" | awk '{ print $3 }'; }
echo "# network started $(date -d @$((T0 / 1000000000)) +%T) (keys made first)," \
  "auth0 up $(first_seen auth0 notice 'opening new log file')," \
  "client bootstrapped $(first_seen client notice 'Bootstrapped 100%')," \
  "hs bootstrapped $(first_seen hs notice 'Bootstrapped 100%')," \
  "hs descriptor upload $(first_seen hs info 'Initiating upload for hidden service current')"
echo "# first fetch ${fetched:-never} s after the test started (limit $LIMIT s);" \
  "ADD_ONION service fetched ${added_fetched:-never} s after its creation," \
  "again ${refetched:-never} s after re-adding it on the restarted tor"
[ -n "$fetched" ] || { tail -n 5 "$WORK/curl.err"; tor_net_dump; }
finish
