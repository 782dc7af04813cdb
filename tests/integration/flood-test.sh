#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A handshake flood (issue #25, failure 5): anyone can build a msg1, so one
# attacker must not lock new peers out, nor disturb established links.
#
#        fB (10.95.1.2)
#         |
#   fX ---fA--- fC         veth pairs 10.95.1.0/24 (A-B), .2.0/24 (A-C),
#   (10.95.3.2)  (10.95.2.2)          .3.0/24 (A-X); A binds 0.0.0.0:2121
#
# A and B run fips0 and are linked (B dials A). X runs tests/tools/msg1-flood:
# 10,000 valid-looking msg1s a second for A's npub, each with its own static
# and ephemeral key, all from X's one address; by default forged (one byte
# of the encrypted static flipped: A pays an ECDH to find out, and no link
# ever comes of it), FLOOD_MODE=valid sends them intact. During the flood: C (a new
# peer, never seen by A) starts and must link with A within 15 s; A pings
# B's fips0 address 10 times a second and must lose nothing. Prints the
# seconds C took, the ping loss, A's msg1 refusals by reason, and the CPU
# each of A's processes used during the flood (from /proc/PID/stat).
# FLOOD_TOOL overrides the sender (to measure another build).
set -u
BUILD=${1:?usage: flood-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v ping >/dev/null || { echo "SKIP: ping not installed"; exit 77; }
FLOOD=${FLOOD_TOOL:-$BUILD/tests/tools/msg1-flood}
RATE=10000 SECS=25 MODE=${FLOOD_MODE:-forged}

node_ns A "fA-$$"
node_ns B "fB-$$"
node_ns C "fC-$$"
node_ns X "fX-$$"
veth_link A B 10.95.1.1/24 10.95.1.2/24
veth_link A C 10.95.2.1/24 10.95.2.2/24
veth_link A X 10.95.3.1/24 10.95.3.2/24
netns_workdir
node_keygen A B C
node_config A --tun
node_config B --tun --peer A 10.95.1.1:2121
node_config C --peer A 10.95.2.1:2121
start_suite A
start_suite B
ab_up() { links_up A B && links_up B A; }
check "A-B link up" wait_until 15 ab_up
ADDR_B=$(grep -o "address fd[0-9a-f:]*" "$WORK/B.log" | head -1 | cut -d' ' -f2)
ping_b() { in_ns A ping -6 -c 1 -W 1 "$ADDR_B" >/dev/null 2>&1; }
check "A pings B's fips0 address before the flood" wait_until 20 ping_b

# cpu_ticks PID: utime + stime of PID (clock ticks).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
ROUTER_A=$(child_pid "${SUITE[A]}" fips-router)
UDP_A=$(child_pid "${SUITE[A]}" fips-udp)
SUP_A=${SUITE[A]}
HZ=$(getconf CLK_TCK)

T_START=$(date +%s%N)
CPU0=("$(cpu_ticks "$ROUTER_A")" "$(cpu_ticks "$UDP_A")" "$(cpu_ticks "$SUP_A")")
in_ns X "$FLOOD" "${NPUB[A]}" 10.95.3.1 2121 "$RATE" "$SECS" 500 "$MODE" > "$WORK/flood.out" 2>&1 &
FLOOD_PID=$!
sleep 2
in_ns A ping -6 -i 0.1 -c 150 -W 1 "$ADDR_B" > "$WORK/ping.out" 2>&1 &
PING_PID=$!
sleep 1
T0=$(date +%s%N)
start_suite C
if wait_until 15 links_up C A; then
  C_SECS=$(awk -v t="$(date +%s%N)" -v t0="$T0" 'BEGIN { printf "%.1f", (t - t0) / 1e9 }')
else
  C_SECS="none in 15"
fi
wait "$PING_PID"
wait "$FLOOD_PID"
T_END=$(date +%s%N)
CPU1=("$(cpu_ticks "$ROUTER_A")" "$(cpu_ticks "$UDP_A")" "$(cpu_ticks "$SUP_A")")
echo "# flood: $(cat "$WORK/flood.out")"
echo "# new peer C linked with A during the flood after: $C_SECS s"
echo "# A->B pings during the flood: $(grep -o '[0-9]* packets transmitted.*loss' "$WORK/ping.out")"
cpu_report() {  # cpu_report NAME INDEX
  awk -v b="${CPU0[$2]}" -v a="${CPU1[$2]}" -v hz="$HZ" -v t0="$T_START" -v t1="$T_END" -v n="$1" \
    'BEGIN { s = (a - b) / hz; printf "# CPU of A'\''s %s during the flood: %.2f s in %.1f s (%.1f%%)\n",
             n, s, (t1 - t0) / 1e9, 100 * s / ((t1 - t0) / 1e9) }'
}
cpu_report fips-router 0
cpu_report fips-udp 1
cpu_report "fips (supervisor)" 2

check "the flood ran (>= 100,000 msg1 sent)" \
  awk '/^sent/ { exit !($2 >= 100000) }' "$WORK/flood.out"
check "new peer C links with A within 15 s during the flood" links_up C A
check "A->B: no ping lost during the flood (150 of 150)" grep -q " 150 received" "$WORK/ping.out"

for n in C B A; do stop_suite "$n"; done
echo "# A's link counters: $(grep -o 'counters:.*' "$WORK/A.log" | tail -1)"
check "A counted the flood's msg1s as refused per source" \
  grep -qE "msg1_source_limited=[0-9]{5,}" "$WORK/A.log"
if [ "$FAILED" -ne 0 ]; then
  for n in A B C; do echo "--- $n.log"; tail -20 "$WORK/$n.log"; done
fi
finish
