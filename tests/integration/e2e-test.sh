#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End to end (issue #6): unmodified IPv6 programs on node A reach programs on
# node C two hops away, over fips0, through an FSP session forwarded by B:
#
#   eA ---- eB ---- eC     veth pairs 10.97.1.0/24 and 10.97.2.0/24;
#                          A and C are not peers, B is in the middle.
#
# Every node runs a fips suite with the TUN (fips0, mtu 1400) and its .fips
# DNS responder on [::1]:5354; UDP transports have mtu 1472, so the IPv6
# effective MTU is 1395 and packets of 1396..1400 bytes get Packet Too Big.
# Checks: A's resolver answers C's npub.fips with C's address (which primes
# A's identity cache); ping -6 A→C; an HTTP GET of a 10 MB file served on C
# arrives intact (sha256); iperf3 A→C for 5 s; a capture on B's interfaces
# holds no plaintext marker that A sent to C; after kill -9 of B's router
# (its supervisor stops B's suite) and a restart of B's suite, ping A→C works
# again within 10 s; a never-resolved fd00:: address gets Destination
# Unreachable; an oversize packet gets Packet Too Big and a large ping still
# gets through (path MTU discovery); `fipsctl show sessions` at A and C
# counts the pings and the HTTP transfer's TCP packets and bytes.
set -u
BUILD=${1:?usage: e2e-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
for t in dig curl ping; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

NODES=(A B C)
line_nodes e 10.97 "${NODES[@]}" -- --tun --tun-mtu 1400 --dns ::1 5354 --mtu 1472 || exit 1
for n in "${NODES[@]}"; do start_suite "$n"; done

suite_up() { grep -q "TUN fips0 ready" "$WORK/$1.log" && grep -q "DNS responder" "$WORK/$1.log"; }
all_up() { suite_up A && suite_up B && suite_up C && links_up B A C; }
check "three suites up with TUN, DNS and both links of B" wait_until 20 all_up

ADDR_C=$(in_ns A dig +short AAAA "${NPUB[C]}.fips" @::1 -p 5354 2>/dev/null | head -1)
want_c=$(grep -o "address fd[0-9a-f:]*" "$WORK/C.log" | head -1 | cut -d' ' -f2)
check "dig AAAA <npub-of-C>.fips @::1 -p 5354 from A gives C's address ($ADDR_C)" \
  test -n "$ADDR_C" -a "$ADDR_C" = "$want_c"

ping_c() { in_ns A ping -6 -c 1 -W 1 "$ADDR_C" >/dev/null 2>&1; }
check "ping -6 from A to C's address succeeds" wait_until 30 ping_c
check "ping -6 -c 3 A→C: 3 of 3 replies" \
  bash -c "ip netns exec eA-$$ ping -6 -c 3 -i 0.2 -W 2 $ADDR_C | grep -q ' 3 received'"
check "A logged the session with C" grep -q "session: up" "$WORK/A.log"

# session_stats NODE PEER: "packets_sent packets_recv bytes_sent bytes_recv"
# of NODE's session with PEER (fipsctl show sessions --json; 0s if none).
session_stats() {
  "$BUILD/ctl/fipsctl" -s "$WORK/$1/control.sock" show sessions --json | "$PY" -c '
import json, sys
s = [e["stats"] for e in json.load(sys.stdin)["sessions"] if e["npub"] == sys.argv[1]]
s = s[0] if s else {"packets_sent": 0, "packets_recv": 0, "bytes_sent": 0, "bytes_recv": 0}
print(s["packets_sent"], s["packets_recv"], s["bytes_sent"], s["bytes_recv"])' "${NPUB[$2]}"
}
# at_least NODE PEER MIN_SENT MIN_RECV [MIN_BYTES_SENT MIN_BYTES_RECV]: the
# session counters reach the minimums (the snapshot is taken once a tick).
at_least() {
  local s
  read -r -a s <<< "$(session_stats "$1" "$2")"
  [ "${s[0]:-0}" -ge "$3" ] && [ "${s[1]:-0}" -ge "$4" ] &&
    [ "${s[2]:-0}" -ge "${5:-0}" ] && [ "${s[3]:-0}" -ge "${6:-0}" ]
}
# At least the 3 pings above (and the first one that got through) each way,
# each a 64-byte ICMPv6 echo (the counted bytes are the compressed packets,
# about 71 bytes each).
check "show sessions at A: C's session counted the pings (>= 4 sent, 4 received)" \
  wait_until 3 at_least A C 4 4 256 256
check "show sessions at C: A's session counted the pings (>= 4 sent, 4 received)" \
  wait_until 3 at_least C A 4 4 256 256
echo "# sessions after the pings: A->C $(session_stats A C), C->A $(session_stats C A)"

# HTTP: a 10 MB file served on C.
mkdir -p "$WORK/www"
head -c 10485760 /dev/urandom > "$WORK/www/big.bin"
(cd "$WORK/www" && exec ip netns exec "eC-$$" "$PY" -m http.server -b :: 8080 \
  >/dev/null 2>&1) &
HTTP=$!
CLEANUPS+=("kill $HTTP 2>/dev/null; wait $HTTP 2>/dev/null")
http_up() { in_ns C curl -s -o /dev/null "http://[::1]:8080/"; }
wait_until 10 http_up
in_ns A curl -s -g --max-time 60 -o "$WORK/got.bin" "http://[$ADDR_C]:8080/big.bin"
want=$(sha256sum < "$WORK/www/big.bin" | cut -d' ' -f1)
got=$(sha256sum < "$WORK/got.bin" 2>/dev/null | cut -d' ' -f1)
check "HTTP GET of a 10 MB file on C arrives intact (sha256)" test "$want" = "$got"
# TCP over the session is counted too: 10 MB in segments of at most 1335
# bytes (MSS for a 1395-byte path MTU) is more than 7,800 packets from C.
# The snapshot is taken once a tick: the counters may lag by up to 1 s.
check "show sessions: C's session at A received the 10 MB (>= 7,800 packets)" \
  wait_until 3 at_least A C 100 7800 0 10485760
check "show sessions: A's session at C sent the 10 MB (>= 7,800 packets)" \
  wait_until 3 at_least C A 7800 100 10485760 0
echo "# sessions after the GET: A->C $(session_stats A C), C->A $(session_stats C A)"

if command -v iperf3 >/dev/null; then
  in_ns C iperf3 -s -1 -B "$ADDR_C" >/dev/null 2>&1 &
  IPERF=$!
  sleep 0.5
  in_ns A iperf3 -c "$ADDR_C" -t 5 -J > "$WORK/iperf.json" 2>/dev/null
  bps=$("$PY" -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"]))' \
    "$WORK/iperf.json" 2>/dev/null || echo 0)
  echo "# iperf3 A→C: $((bps / 1000000)) Mbit/s"
  check "iperf3 A→C runs 5 s and moves data" test "$bps" -gt 0
  kill "$IPERF" 2>/dev/null; wait "$IPERF" 2>/dev/null
else
  check "iperf3 installed" false
fi

# No plaintext on B's wire.
if command -v tcpdump >/dev/null; then
  MARKER="fips-e2e-plaintext-marker-$$"
  in_ns B tcpdump -i any -U -w "$WORK/b.pcap" udp port 2121 >/dev/null 2>&1 &
  DUMP=$!
  sleep 1
  for _ in 1 2 3; do
    in_ns A curl -s -g --max-time 5 -o /dev/null -d "$MARKER" "http://[$ADDR_C]:8080/$MARKER"
  done
  sleep 1
  kill "$DUMP"; wait "$DUMP" 2>/dev/null
  check "tcpdump on B captured the A→C traffic" test "$(stat -c %s "$WORK/b.pcap")" -gt 2000
  check "no plaintext marker in B's capture" bash -c "! grep -aq '$MARKER' '$WORK/b.pcap'"
else
  check "tcpdump installed" false
fi

# Unresolved fd00:: address → Destination Unreachable from fips0.
in_ns A ping -6 -c 1 -W 2 fd00::1234 > "$WORK/unreach.txt" 2>&1
check "ping to a never-resolved fd00:: address gets ICMPv6 Destination unreachable" \
  grep -qi "unreachable" "$WORK/unreach.txt"

# Path MTU: 1400-byte packets exceed the effective MTU 1395.
sleep 0.3  # ICMPv6 errors to one source are rate limited (100 ms)
# The kernel takes the Packet Too Big from fips0 into its route cache
# (ping itself does not print it): the route to C then has mtu 1395.
in_ns A ping -6 -c 1 -W 2 -M do -s 1352 "$ADDR_C" >/dev/null 2>&1
in_ns A ip -6 route get "$ADDR_C" > "$WORK/ptb.txt" 2>&1
sed 's/^/# /' "$WORK/ptb.txt"
check "an oversize packet gets Packet Too Big (A's route to C: mtu 1395)" \
  grep -q "mtu 1395" "$WORK/ptb.txt"
check "ping -s 1352 (1400-byte packets) A→C still gets through" \
  bash -c "ip netns exec eA-$$ ping -6 -c 3 -i 0.3 -W 2 -s 1352 $ADDR_C | grep -q ' [1-3] received'"

# B's router dies: its supervisor stops B's suite; B is restarted.
ROUTER_B=$(child_pid "${SUITE[B]}" fips-router)
kill -9 "$ROUTER_B"
check "B's supervisor stops B's suite after its router died" wait_until 10 pids_gone "${SUITE[B]}"
stop_suite B
mv "$WORK/B.log" "$WORK/B-1.log"
start_suite B
wait_until 15 suite_up B
t0=$(date +%s%N)
if wait_until 10 ping_c; then
  echo "# traffic resumed $(( ($(date +%s%N) - t0) / 1000000 )) ms after B's suite was up"
  check "ping A→C resumes within 10 s of B's restart" true
else
  check "ping A→C resumes within 10 s of B's restart" false
  tail -n 20 "$WORK/A.log" "$WORK/B.log" "$WORK/C.log"
fi

finish
