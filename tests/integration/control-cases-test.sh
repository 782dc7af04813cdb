#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Control cases from the reference's history (issue #7), with real nodes:
#
#   ns kA-$$                                 ns kB-$$
#   fips (A) 10.97.0.1:2121 ---- veth ---- 10.97.0.2:2121 fips (B)
#   + 20 static peers that never answer:
#     10 at 203.0.113.0/24 (a blackhole route in A's namespace: sends fail),
#     10 at 198.51.100.0/24 (routed to B, which does not forward: silence).
#
# Checks: with those 20 peers dialing and redialing, 100 `fipsctl show
# status` queries each answer (latency printed, and every one under 1 s);
# `connect` to B when it is already linked on that address says so
# (exit 0, "already connected", already_connected true in --json), and at
# another address says nothing changed; `connect` to a peer still being
# dialed (a configured silent peer, or a second connect) says "already
# connecting" (exit 0; already_connecting and dial_state in --json) and
# `disconnect` of it cancels the dial and its retries (no handshake to it
# afterwards, "peer not found" the second time), also by a configured
# alias (silent-two), the --json answers naming its npub; `stats history
# --peer nobody` says connect's "unknown peer" wording; `connect` by host name
# (node-b.test in A's netns hosts file) is looked up by the UDP worker and
# brings B up, and a name that does not resolve is logged and not dialed;
# `connect` with an fd00::/8 address is refused with an error naming
# fd00::/8; `disconnect` sends B a Disconnect so B drops A at once (long
# before its dead-link timeout, 30 s here) and A keeps no link; show
# sessions|connections|routing|identity-cache and acl show answer from the
# same node (connections lists the 20 dials); probe of a direct peer opens a
# session, ends ok with its SRTT (or sub_millisecond) and tears the session
# down (cleanup, none left); a key no filter claims fails at bloom.
set -u
BUILD=${1:?usage: control-cases-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

node_ns A kA-$$
node_ns B kB-$$
veth_link A B 10.97.0.1/24 10.97.0.2/24
# `ip netns exec` mounts /etc/netns/<ns>/hosts over /etc/hosts: A's UDP
# worker knows B as node-b.test (a connect by host name); its resolv.conf
# names a server on A's loopback where nothing listens, so no query leaves.
mkdir -p "/etc/netns/kA-$$"
CLEANUPS+=("rm -rf /etc/netns/kA-$$")
printf '127.0.0.1 localhost\n10.97.0.2 node-b.test\n' > "/etc/netns/kA-$$/hosts"
echo "nameserver 127.0.0.1" > "/etc/netns/kA-$$/resolv.conf"
in_ns A ip route add blackhole 203.0.113.0/24
in_ns A ip route add 198.51.100.0/24 via 10.97.0.2
in_ns B sysctl -qw net.ipv4.ip_forward=0

netns_workdir
node_keygen A B || exit 1
NPUB_A=${NPUB[A]}
NPUB_B=${NPUB[B]}
SILENT=()
for i in $(seq 1 20); do
  NPUB[S$i]=$("$BUILD/ctl/fipsctl" keygen --stdout | sed -n 2p)
  if [ "$i" -le 10 ]; then addr="203.0.113.$i"; else addr="198.51.100.$i"; fi
  SILENT+=(--peer "S$i" "$addr:2121")
  [ "$i" -eq 2 ] && SILENT+=(--alias silent-two)  # connect/disconnect by alias
done
node_config A --bind 10.97.0.1:2121 --dead 30 "${SILENT[@]}"
node_config B --bind 10.97.0.2:2121 --dead 30
SOCK_A=$WORK/A/control.sock
SOCK_B=$WORK/B/control.sock

ctl() { "$BUILD/ctl/fipsctl" -s "$SOCK_A" "$@"; }
peer_count() { "$BUILD/ctl/fipsctl" -s "$1" show status --json | json_get 'd["peer_count"]'; }
export BUILD
export -f peer_count

start_suite A; start_suite B
wait_until 10 bash -c "grep -q 'udp ready' $WORK/A.log && grep -q 'udp ready' $WORK/B.log && [ -S $SOCK_A ] && [ -S $SOCK_B ]"

# --- 20 peers that never answer: queries still answer at once
check "show connections --json lists the 20 dials" wait_until 10 bash -c \
  "[ \"\$($BUILD/ctl/fipsctl -s $SOCK_A show connections --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)[\"connections\"]))')\" = 20 ]"
python3 - "$BUILD/ctl/fipsctl" "$SOCK_A" > "$WORK/latency" <<'PY'
import subprocess, sys, time
times, failures = [], 0
for _ in range(100):
    t = time.monotonic()
    r = subprocess.run([sys.argv[1], "-s", sys.argv[2], "show", "status", "--json"],
                       capture_output=True, timeout=10)
    times.append((time.monotonic() - t) * 1000)
    failures += r.returncode != 0 or b'"npub"' not in r.stdout
times.sort()
print(f"failures={failures} p50_ms={times[49]:.1f} p99_ms={times[98]:.1f} max_ms={times[99]:.1f}")
PY
echo "# show status with 20 silent peers: $(cat "$WORK/latency")"
check "100 show status queries all answered" grep -q '^failures=0 ' "$WORK/latency"
check "every query under 1 s (the loop never blocks)" \
  python3 -c "import sys; sys.exit(0 if float(open('$WORK/latency').read().split('max_ms=')[1]) < 1000 else 1)"
check "show routing --json: the silent peers are in retries[]" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A show routing --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if \"forwarding\" in d and isinstance(d[\"retries\"], list) and isinstance(d[\"pending_lookups\"], list) else 1)'"

# --- a peer still being dialed: connect again changes nothing and says so;
# disconnect cancels the dial and its retries
pending_to() {  # pending_to ADDR: show connections lists a handshake to ADDR
  "$BUILD/ctl/fipsctl" -s "$SOCK_A" show connections --json |
    python3 -c 'import json,sys; sys.exit(0 if sys.argv[1] in [c["remote_addr"] for c in json.load(sys.stdin)["connections"]] else 1)' "$1"
}
export -f pending_to
export SOCK_A
ctl connect "${NPUB[S1]}" 203.0.113.1:2121 udp > "$WORK/out" 2>&1; rc=$?
check "connect to a configured peer still being dialed: exit 0, 'already connecting'" \
  bash -c "[ $rc -eq 0 ] && grep -q 'already connecting' $WORK/out"
check "connect --json to it: already_connecting with its dial_state, the asked address not echoed" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A connect ${NPUB[S1]} 203.0.113.1:2121 udp --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d[\"already_connecting\"] and not d[\"already_connected\"] and d[\"dial_state\"] in (\"handshake\", \"retry_backoff\") and d[\"address\"] is None and \"was not dialed\" in d[\"message\"] else 1)'"
ctl disconnect "${NPUB[S1]}" > "$WORK/out" 2>&1; rc=$?
check "disconnect of a configured peer still being dialed: exit 0, the dial cancelled" \
  bash -c "[ $rc -eq 0 ] && grep -q 'cancelled the pending dial' $WORK/out"
sleep 4  # past the retry backoff (at most 2 s): a dial left behind would be back
check "after that disconnect: no handshake to it, none 4 s later" bash -c "! pending_to 203.0.113.1:2121"
# by its configured alias (the router resolves it): the npub it names
ctl connect silent-two 203.0.113.2:2121 udp --json > "$WORK/out" 2>&1
check "connect --json by alias: already_connecting, the alias's npub" python3 -c \
  'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["already_connecting"] and d["npub"] == sys.argv[2] else 1)' \
  "$WORK/out" "${NPUB[S2]}"
ctl disconnect silent-two --json > "$WORK/out" 2>&1
check "disconnect --json by alias: the dial cancelled, the alias's npub" python3 -c \
  'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["dial_cancelled"] and d["npub"] == sys.argv[2] else 1)' \
  "$WORK/out" "${NPUB[S2]}"
X=$("$BUILD/ctl/fipsctl" keygen --stdout | sed -n 2p)  # a key at an address that never answers
check "connect to a new peer whose address is silent: exit 0, connecting" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A connect $X 198.51.100.50:2121 udp | grep -q '^connecting'"
check "its handshake is pending" pending_to 198.51.100.50:2121
ctl connect "$X" 198.51.100.50:2121 udp > "$WORK/out" 2>&1; rc=$?
check "connect to it again: exit 0, 'already connecting (handshake in progress)'" \
  bash -c "[ $rc -eq 0 ] && grep -q 'already connecting.*handshake in progress' $WORK/out"
ctl disconnect "$X" --json > "$WORK/out" 2>&1; rc=$?
check "disconnect --json of it: exit 0, dial_cancelled true, dial_state handshake" bash -c \
  "[ $rc -eq 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d[\"dial_cancelled\"] and d[\"dial_state\"] == \"handshake\" else 1)' $WORK/out"
check "after it: no handshake to it" bash -c "! pending_to 198.51.100.50:2121"
ctl disconnect "$X" > "$WORK/out" 2>&1; rc=$?
check "disconnect of it again: exit 1, peer not found" bash -c "[ $rc -eq 1 ] && grep -q 'peer not found' $WORK/out"

# --- connect by host name: A's UDP worker looks node-b.test up, then dials
ctl connect "$NPUB_B" node-b.test:2121 udp > "$WORK/out" 2>&1; rc=$?
check "connect B by host name: exit 0, says it looks the name up first" \
  bash -c "[ $rc -eq 0 ] && grep -q 'looking up its host name' $WORK/out"
check "connect by host name: the link to B comes up at its address" wait_until 5 bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A show peers --json | grep -q '\"transport_addr\": *\"10.97.0.2:2121\"'"
check "A logged the answer" grep -q "node-b.test:2121 resolves to 10.97.0.2" "$WORK/A.log"
check "disconnect B (linked by host name) exits 0" ctl disconnect "$NPUB_B"
wait_until 5 bash -c "[ \"\$(peer_count $SOCK_B)\" = 0 ]"
ctl connect "$NPUB_B" no-such-host.test:2121 udp > /dev/null 2>&1
check "connect to a host name that does not resolve: logged, nothing dialed" wait_until 10 \
  grep -q "cannot resolve no-such-host.test:2121" "$WORK/A.log"

# --- connect, then connect again: already linked says so
check "connect to B exits 0" ctl connect "$NPUB_B" 10.97.0.2:2121 udp
check "the link to B comes up" wait_until 5 bash -c "[ \"\$(peer_count $SOCK_A)\" = 1 ]"
ctl connect "$NPUB_B" 10.97.0.2:2121 udp > "$WORK/out" 2>&1; rc=$?
check "connect to an already-linked peer: exit 0 and says already connected" \
  bash -c "[ $rc -eq 0 ] && grep -q 'already connected' $WORK/out"
check "connect --json to an already-linked peer: already_connected true" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A connect $NPUB_B 10.97.0.2:2121 udp --json | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)[\"already_connected\"] else 1)'"
ctl connect "$NPUB_B" 10.97.0.9:2121 udp > "$WORK/out" 2>&1; rc=$?
check "connect to a linked peer at another address: exit 1, names the current path" \
  bash -c "[ $rc -eq 1 ] && grep -q 'already connected via 10.97.0.2:2121: nothing was changed' $WORK/out"

# --- fd00::/8 is the mesh itself, never a transport address
ctl connect "$NPUB_B" '[fd00::1]:2121' udp > "$WORK/out" 2>&1; rc=$?
check "connect with an fd00::/8 address: exit 1 with a clear error" \
  bash -c "[ $rc -eq 1 ] && [ \$(wc -l < $WORK/out) -eq 1 ] && grep -q 'fd00::/8' $WORK/out"
ctl connect "$NPUB_B" 'fd12:3456::1' udp > "$WORK/out" 2>&1; rc=$?
check "connect with a bare fd00::/8 address: refused too" \
  bash -c "[ $rc -eq 1 ] && grep -q 'fd00::/8' $WORK/out"

# --- the other read commands answer from the same snapshot
check "show sessions --json parses" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A show sessions --json | python3 -c 'import json,sys; sys.exit(0 if isinstance(json.load(sys.stdin)[\"sessions\"], list) else 1)'"
check "show identity-cache --json lists B" wait_until 5 bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A show identity-cache --json | grep -q '$NPUB_B'"
check "acl show --json: default_open" bash -c \
  "[ \"\$($BUILD/ctl/fipsctl -s $SOCK_A acl show --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"effective_mode\"])')\" = default_open ]"
acl_missing() {  # where /etc/fips/peers.deny is absent, acl show says so
  [ -e /etc/fips/peers.deny ] || ctl acl show | grep -q '/etc/fips/peers.deny (missing)'
}
check "acl show: a missing ACL file is said missing" acl_missing
history_refused() {  # history_refused MESSAGE ARGS...: fipsctl stats history fails saying MESSAGE
  local message=$1
  shift
  ! ctl stats history "$@" > "$WORK/history.out" 2>&1 && grep -qF "$message" "$WORK/history.out"
}
check "stats history --window 10: the unit is missing" \
  history_refused "missing duration unit: 10" peer_count --window 10
check "stats history --granularity '': refused" \
  history_refused "unknown granularity:" peer_count --granularity ""
check "stats history --peer nobody: connect's unknown peer wording" history_refused \
  "unknown peer 'nobody': not an npub, a hosts-file name or a configured peer alias" \
  srtt_ms --peer nobody
check "stats history srtt_ms without --peer: needs --peer" \
  history_refused "srtt_ms is a per-peer metric: give --peer" srtt_ms
history_cut() {
  ctl stats history peer_count --window 2h | grep -q "note: window cut to 1h00m" &&
    ctl stats history peer_count --window 2h --json |
    json_get 'd["window_cut_from_seconds"] == 7200 and len(d["values"]) == 3600' | grep -q True
}
check "stats history --window 2h: cut to the 1 h ring, and said" history_cut
check "stats metrics --json has the forwarding family" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A stats metrics --json | python3 -c 'import json,sys; sys.exit(0 if \"forwarded_packets\" in json.load(sys.stdin)[\"forwarding\"] else 1)'"

# --- probe crosses to the data plane: a direct peer, and a key nobody announces
# One probe: the session it opens sends its first session reports as soon
# as they are due, so the rtt stage has its reports one round trip after the
# probe's first frame, well within the reference's 3 s budget. On a veth the
# round trip may be under the 1 ms the echoes can carry: probe_rtt_sound.
ctl probe "$NPUB_B" --json > "$WORK/probe.json"; rc=$?
check "probe B: one JSON report; session ok; rtt ok, or failed as sub_millisecond (exit 1)" \
  bash -c "[ \"\$(json_get 'd[\"session\"][\"verdict\"]' < $WORK/probe.json)\" = ok ] &&
    probe_rtt_sound $WORK/probe.json $rc"
check "probe B: discovery via direct_peer, path ok with B as next hop" bash -c \
  "[ \"\$(json_get 'd[\"discovery\"][\"source\"], d[\"path\"][\"verdict\"], d[\"path\"][\"next_hop\"][\"direct_peer\"]' < $WORK/probe.json)\" = \"direct_peer ok True\" ]"
check "probe B: the session it opened was torn down at its end (cleanup), none left on A" bash -c \
  "[ \"\$(json_get 'd[\"cleanup\"][\"session_created_and_torn_down\"], d[\"cleanup\"][\"left_intact_reason\"], d[\"tick_ms\"]' < $WORK/probe.json)\" = \"True None 1000\" ] &&
    [ \"\$($BUILD/ctl/fipsctl -s $SOCK_A show sessions --json | json_get 'len(d[\"sessions\"])')\" = 0 ]"
ctl probe "${NPUB[S1]}" --json > "$WORK/probe.json"; rc=$?
check "probe of a key no filter claims: bloom failed (bloom_miss), overall failed" bash -c \
  "[ $rc -eq 1 ] && [ \"\$(json_get 'd[\"bloom\"][\"reason\"], d[\"overall\"]' < $WORK/probe.json)\" = \"bloom_miss failed\" ]"
check "probe (text) prints the stage block" bash -c "$BUILD/ctl/fipsctl -s $SOCK_A probe $NPUB_B | grep -q '^discovery'"

# --- disconnect: B is told, both sides tear down
check "B sees A" wait_until 5 bash -c "[ \"\$(peer_count $SOCK_B)\" = 1 ]"
t0=$(date +%s%N)
check "disconnect B at A exits 0" ctl disconnect "$NPUB_B"
check "disconnect: B drops A within 3 s (the Disconnect, not the 30 s dead timeout)" \
  wait_until 3 bash -c "[ \"\$(peer_count $SOCK_B)\" = 0 ]"
echo "# B dropped A $(( ($(date +%s%N) - t0) / 1000000 )) ms after disconnect"
check "disconnect: A has no link to B" bash -c "[ \"\$(peer_count $SOCK_A)\" = 0 ]"
check "disconnect: B logged the peer's Disconnect" grep -qi 'disconnect' "$WORK/B.log"

stop_suite A; stop_suite B
finish
