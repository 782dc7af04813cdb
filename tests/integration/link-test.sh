#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# FMP links between real fips suites over UDP in network namespaces:
#
#   ns lA-$$                      ns lB-$$
#   fips (A) 10.99.0.1:2121 ---- veth ---- 10.99.0.2:2121 fips (B)
#
# A and B list each other as static peers and both dial at once. Checks:
# one link each way within 2 s of start, for 5 simultaneous starts, the
# direction each end logs (link up, or "link now outbound" after the
# cross-connection tie-break) being the one `show peers` shows; a
# SIGKILLed node is declared dead within link_dead_timeout + 1 s and the
# link comes back when it returns; a killed UDP worker is replaced within
# 5 s and does not take the link down; 10,000 random datagrams and 1,000
# replays of a captured msg1 crash nothing, create no link and are counted
# as drops by B's link engine (its counters line at a graceful stop);
# with max_peers 1 a third node C (own veth to B) is refused while A stays,
# and links once the limit is lifted; SIGTERM sends Disconnect and the other
# side drops the link at once.
set -u
BUILD=${1:?usage: link-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

A=lA-$$ B=lB-$$
node_ns A "$A"
node_ns B "$B"
veth_link A B 10.99.0.1/24 10.99.0.2/24 vA-$$ vB-$$

netns_workdir
node_keygen A B
NPUB_A=${NPUB[A]}
NPUB_B=${NPUB[B]}
node_config A --bind 10.99.0.1:2121 --peer B 10.99.0.2:2121
node_config B --bind 10.99.0.2:2121 --peer A 10.99.0.1:2121

ups() { grep -c "link up: $2" "$WORK/$1.log"; }
downs() { grep -c "link down: $2" "$WORK/$1.log"; }
linked() { [ "$(ups A "$NPUB_B")" -ge "$1" ] && [ "$(ups B "$NPUB_A")" -ge "$1" ]; }
one_link() {
  [ "$(ups A "$NPUB_B")" -eq 1 ] && [ "$(ups B "$NPUB_A")" -eq 1 ] &&
    [ "$(downs A "$NPUB_B")" -eq 0 ] && [ "$(downs B "$NPUB_A")" -eq 0 ]
}
# logged_direction NODE NPUB: the direction NODE's log last gave the link to
# NPUB ("link up: ... (inbound|outbound)", or "link now outbound: ..." after
# a simultaneous dial's tie-break kept our outbound session).
logged_direction() {
  grep -E "link (up|now outbound): $2" "$WORK/$1.log" | tail -1 |
    sed -E 's/.*link now outbound:.*/outbound/; s/.*\((inbound|outbound)\)$/\1/'
}
# shown_direction NODE NPUB: show peers --json's direction for NPUB.
shown_direction() {
  "$BUILD/ctl/fipsctl" -s "$WORK/$1/control.sock" show peers --json | python3 -c \
    'import json,sys; print(*[p["direction"] for p in json.load(sys.stdin)["peers"] if p["npub"] == sys.argv[1]])' "$2"
}
directions_agree() {
  local la lb
  la=$(logged_direction A "$NPUB_B") lb=$(logged_direction B "$NPUB_A")
  echo "# logged A->B $la, B->A $lb; shown $(shown_direction A "$NPUB_B"), $(shown_direction B "$NPUB_A")"
  [ -n "$la" ] && [ "$la" = "$(shown_direction A "$NPUB_B")" ] &&
    [ -n "$lb" ] && [ "$lb" = "$(shown_direction B "$NPUB_A")" ] && [ "$la" != "$lb" ]
}

# Captures the first FMP msg1 (114-byte UDP payload, first byte 0x01) seen on
# B's veth, for the replay test below.
ip netns exec "$B" timeout 30 python3 - "$WORK/msg1" vB-$$ <<'PY' &
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
s.bind((sys.argv[2], 0))
while True:
    frame = s.recv(2048)
    ip = frame[14:]
    ihl = (ip[0] & 0x0F) * 4
    if ip[9] != 17:
        continue
    udp = ip[ihl:]
    payload = udp[8:]
    if len(payload) == 114 and payload[0] == 0x01:
        open(sys.argv[1], "wb").write(payload)
        break
PY
SNIFFER=$!
sleep 0.5

# --- both dial at once, 5 times: exactly one link each way within 2 s
for round in 1 2 3 4 5; do
  : > "$WORK/A.log"; : > "$WORK/B.log"
  start_suite A; start_suite B
  # "Start" is when both suites are up (their UDP workers bound): process
  # start-up itself can take longer than 2 s on a loaded machine.
  wait_until 10 suite_ready A && wait_until 10 suite_ready B
  check "round $round: link up both ways within 2 s" wait_until 2 linked 1
  sleep 1
  check "round $round: exactly one link (no flap)" one_link
  check "round $round: the logged direction is show peers' (one end in, one out)" directions_agree
  [ "$round" -lt 5 ] && { stop_suite A; stop_suite B; }
done

# --- a killed UDP worker does not take the link down
UDP_A=$(child_pid "${SUITE[A]}" fips-udp)
kill -9 "$UDP_A"
check "udp worker killed: a new worker is bound within 5 s" wait_until 5 bash -c \
  "[ \$(grep -c 'transport udp bound' $WORK/A.log) -ge 2 ]"
sleep 6
check "udp worker killed: link not declared dead" one_link
check "udp worker killed: worker replaced" bash -c "[ -n \"\$(pgrep -P ${SUITE[A]} -x fips-udp)\" ]"

# --- random datagrams at B's port: nothing crashes, no new link, link stays
ip netns exec "$A" python3 - <<'PY'
import os, random, socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(10000):
    n = random.choice([0, 1, 4, 16, 32, 69, 114, random.randint(0, 1400)])
    data = bytearray(os.urandom(n))
    if n >= 4 and random.random() < 0.5:
        data[0] = random.choice([0x00, 0x01, 0x02])
    s.sendto(bytes(data), ("10.99.0.2", 2121))
# Bursts of large datagrams (once enough to kill the worker's channel).
for size, count in ((9000, 300), (65000, 20)):
    for i in range(count):
        s.sendto(os.urandom(size), ("10.99.0.2", 2121))
PY
wait "$SNIFFER"
check "captured a msg1 on the wire" [ -s "$WORK/msg1" ]
ip netns exec "$A" python3 - "$WORK/msg1" <<'PY'
import socket, sys
msg1 = open(sys.argv[1], "rb").read()
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(1000):
    s.sendto(msg1, ("10.99.0.2", 2121))
PY
sleep 2
check "garbage: B's suite still running" kill -0 "${SUITE[B]}"
check "garbage: router and worker alive" bash -c \
  "pgrep -P ${SUITE[B]} -x fips-router >/dev/null && pgrep -P ${SUITE[B]} -x fips-udp >/dev/null"
check "garbage: the udp worker was never restarted" bash -c "! grep -q 'udp worker exited' $WORK/B.log"
check "garbage and 1,000 msg1 replays: no new link, none lost" one_link
# B's link engine counted them: its counters line at a graceful stop.
stop_suite B
DROPS_B=$(sed -n 's/.*counters: .*; drops\(.*\)/\1/p' "$WORK/B.log" | tr ' ' '\n' |
  awk -F= '{ n += $2 } END { print n + 0 }')
echo "# B's drops after the garbage and the replays: $DROPS_B ($(grep -o 'drops.*' "$WORK/B.log"))"
check "garbage and replays: counted as dropped by B's link engine" [ "$DROPS_B" -ge 10000 ]
UPS_BEFORE=$(ups A "$NPUB_B")
start_suite B
check "B restarted: link back" wait_until 10 bash -c \
  "[ \$(grep -c 'link up: $NPUB_B' $WORK/A.log) -gt $UPS_BEFORE ]"

# --- SIGKILL of B: A declares the link dead within link_dead_timeout (4 s)
# + 1 s; the unit tests check that bound exactly on virtual time, here a
# loaded machine gets 2 s more.
# SIGKILL every process of B at once, as a crash or power loss would: a
# supervisor killed alone lets its children stop gracefully (Disconnect).
kill -9 $(pgrep -P "${SUITE[B]}") "${SUITE[B]}"
wait "${SUITE[B]}" 2>/dev/null
KILLED=$(date +%s)
check "B killed: A declares the link dead (4 s timeout)" \
  wait_until 7 bash -c "grep -q 'link down: $NPUB_B (dead)' $WORK/A.log"
echo "# dead after $(( $(date +%s) - KILLED )) s"
# B's port now answers with ICMP port unreachable: A must not spin.
cpu_ticks() {  # user+system clock ticks of A's router and udp worker
  local total=0 pid
  for pid in $(pgrep -P "${SUITE[A]}"); do
    total=$(( total + $(awk '{ print $14 + $15 }' /proc/"$pid"/stat) ))
  done
  echo "$total"
}
T0=$(cpu_ticks); sleep 5; T1=$(cpu_ticks)
echo "# A's CPU while B's port is unreachable: $(( T1 - T0 )) ticks in 5 s"
check "port unreachable: A stays idle (< 0.25 s CPU in 5 s)" [ $(( T1 - T0 )) -lt 25 ]
UPS_BEFORE=$(ups A "$NPUB_B")
start_suite B
check "B back: link re-established" wait_until 10 bash -c \
  "[ \$(grep -c 'link up: $NPUB_B' $WORK/A.log) -gt $UPS_BEFORE ]"

# --- max_peers 1 on B: a third node C is refused (no msg2), A's link stays
node_ns C lC-$$
veth_link C B 10.99.1.3/24 10.99.1.2/24 vC-$$ vB2-$$
node_keygen C
node_config C --bind 10.99.1.3:2121 --peer B 10.99.1.2:2121
stop_suite B
node_config B --bind 0.0.0.0:2121 --peer A 10.99.0.1:2121 --node $'limits:\n  max_peers: 1'
: > "$WORK/B.log"
start_suite B
check "max_peers 1: B relinks with A" wait_until 10 bash -c "grep -q 'link up: $NPUB_A' $WORK/B.log"
start_suite C
sleep 4
check "max_peers 1: C is refused" bash -c "! grep -q 'link up' $WORK/C.log"
check "max_peers 1: B has exactly one link" [ "$(grep -c 'link up' "$WORK/B.log")" -eq 1 ]
# Control: without the limit, the same C links with B (so C did reach B).
stop_suite B
node_config B --bind 0.0.0.0:2121 --peer A 10.99.0.1:2121
start_suite B
check "max_peers lifted: C links with B" wait_until 15 bash -c "grep -q 'link up: $NPUB_B' $WORK/C.log"
stop_suite C

# --- SIGTERM of A: B is told (Disconnect) and drops the link at once
stop_suite A
check "A stopped: B drops the link on Disconnect" \
  wait_until 2 bash -c "grep -q 'link down: $NPUB_A (remote_disconnect)' $WORK/B.log"
stop_suite B
[ "$FAILED" -eq 0 ] || { echo "--- A.log"; tail -30 "$WORK/A.log"; echo "--- B.log"; tail -30 "$WORK/B.log"; }
finish
