#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The TCP transport (issue #14) between real fips suites in namespaces:
#
#   A (tcp only, no listener) ---- tcp ---- B (tcp :8443 + udp) ---- udp ---- C (udp only)
#   10.98.1.1                     10.98.1.2 | 10.98.2.1                  10.98.2.2
#
# A dials B over TCP, C dials B over UDP; every node has fips0 and the
# .fips DNS responder on [::1]:5354. Checks: A–B link over TCP; ping, a
# 10 MB HTTP GET (sha256) and iperf3 A→B over fips0; A reaches C by name
# (dig <npub>.fips at A's responder, then ping and HTTP) through B, across
# the TCP and UDP links; B's show transports --json counts the connection
# with the reference's TcpStats names. Then against B's TCP port, from A's
# namespace: a port scan (300 connects), random byte streams (as many of
# 10,000 as fit in 15 s), an HTTP request and a TLS ClientHello (closed at
# once, counted as framing errors), 300 idle connections (the 256 cap
# refuses the rest, each accepted one closed after 30 s without a frame):
# the suite stays up, the worker is never restarted, the A–B link passes
# pings throughout, and every kind is counted. Last, kill -9 of the TCP
# worker on either side: ping A→B works again within 5 s, the link never
# declared dead. fipsctl disconnect, then connect B ADDR tcp, brings it back.
set -u
BUILD=${1:?usage: tcp-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
for t in dig curl ping; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

node_ns A tcpA-$$
node_ns B tcpB-$$
node_ns C tcpC-$$
veth_link A B 10.98.1.1/24 10.98.1.2/24
veth_link B C 10.98.2.1/24 10.98.2.2/24
netns_workdir
node_keygen A B C
COMMON=(--tun --dns ::1 5354)
node_config A "${COMMON[@]}" --no-udp --tcp - --tcp-peer B 10.98.1.2:8443
node_config B "${COMMON[@]}" --bind 10.98.2.1:2121 --tcp 10.98.1.2:8443
node_config C "${COMMON[@]}" --bind 10.98.2.2:2121 --peer B 10.98.2.1:2121
for n in A B C; do start_suite "$n"; done

suite_up() { grep -q "TUN fips0 ready" "$WORK/$1.log" && grep -q "DNS responder" "$WORK/$1.log"; }
all_up() { suite_up A && suite_up B && suite_up C && links_up B A C && links_up A B; }
check "three suites up; A–B linked over TCP, B–C over UDP" wait_until 20 all_up
check "A runs no udp worker, a tcp one" bash -c \
  "! grep -q 'udp ready' $WORK/A.log && grep -q 'tcp ready' $WORK/A.log"

addr_of() { grep -o "address fd[0-9a-f:]*" "$WORK/$1.log" | head -1 | cut -d' ' -f2; }
ADDR_B=$(addr_of B)
ping_b() { in_ns A ping -6 -c 1 -W 1 "$ADDR_B" >/dev/null 2>&1; }
check "ping -6 A→B over the TCP link" wait_until 15 ping_b

# tcp_stat NODE FIELD: FIELD of the stats of NODE's tcp transport (show
# transports --json; -1 if absent). at_least_stat NODE FIELD MIN.
tcp_stat() {
  "$BUILD/ctl/fipsctl" -s "$WORK/$1/control.sock" show transports --json |
    "$PY" -c 'import json,sys
t=[t for t in json.load(sys.stdin)["transports"] if t["type"] == "tcp"][0]
print(t["stats"].get(sys.argv[1], -1))' "$2"
}
at_least_stat() { [ "$(tcp_stat "$1" "$2")" -ge "$3" ]; }

# HTTP: a 10 MB file served on B, fetched by A over the TCP link.
mkdir -p "$WORK/www"
head -c 10485760 /dev/urandom > "$WORK/www/big.bin"
(cd "$WORK/www" && exec ip netns exec "tcpB-$$" "$PY" -m http.server -b :: 8080 \
  >/dev/null 2>&1) &
HTTP_B=$!
CLEANUPS+=("kill $HTTP_B 2>/dev/null")
http_up() { in_ns B curl -s -o /dev/null "http://[::1]:8080/"; }
wait_until 10 http_up
T0=$(date +%s%N)
in_ns A curl -s -g --max-time 60 -o "$WORK/got.bin" "http://[$ADDR_B]:8080/big.bin"
T1=$(date +%s%N)
want=$(sha256sum < "$WORK/www/big.bin" | cut -d' ' -f1)
got=$(sha256sum < "$WORK/got.bin" 2>/dev/null | cut -d' ' -f1)
echo "# 10 MB over the TCP link in $(( (T1 - T0) / 1000000 )) ms"
check "HTTP GET of a 10 MB file on B arrives intact over TCP (sha256)" test "$want" = "$got"

if command -v iperf3 >/dev/null; then
  in_ns B iperf3 -s -1 -B "$ADDR_B" >/dev/null 2>&1 &
  IPERF=$!
  sleep 0.5
  in_ns A iperf3 -c "$ADDR_B" -t 3 -J > "$WORK/iperf.json" 2>/dev/null
  bps=$("$PY" -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"]))' \
    "$WORK/iperf.json" 2>/dev/null || echo 0)
  echo "# iperf3 A→B over TCP: $((bps / 1000000)) Mbit/s"
  check "iperf3 A→B over the TCP link moves data" test "$bps" -gt 0
  kill "$IPERF" 2>/dev/null; wait "$IPERF" 2>/dev/null
  # For scale (printed, not checked): raw TCP between the same namespaces.
  in_ns B iperf3 -s -1 -B 10.98.1.2 -p 5202 >/dev/null 2>&1 &
  IPERF=$!
  sleep 0.5
  raw=$(in_ns A iperf3 -c 10.98.1.2 -p 5202 -t 3 -J 2>/dev/null | "$PY" -c \
    'import json,sys; print(int(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]))' \
    2>/dev/null || echo 0)
  wait "$IPERF" 2>/dev/null
  [ "$raw" -gt 0 ] && echo "# raw TCP A→B: $((raw / 1000000)) Mbit/s; over fips0 and the TCP link: $((bps * 100 / raw)) %"
else
  check "iperf3 installed" false
fi

# A → C by name: A's .fips responder, then traffic through B (TCP, then UDP).
ADDR_C=$(in_ns A dig +short AAAA "${NPUB[C]}.fips" @::1 -p 5354 2>/dev/null | head -1)
check "dig AAAA <npub-of-C>.fips at A gives C's address ($ADDR_C)" \
  test -n "$ADDR_C" -a "$ADDR_C" = "$(addr_of C)"
ping_c() { in_ns A ping -6 -c 1 -W 1 "$ADDR_C" >/dev/null 2>&1; }
check "ping -6 A→C across TCP (A–B) and UDP (B–C)" wait_until 20 ping_c
(cd "$WORK/www" && exec ip netns exec "tcpC-$$" "$PY" -m http.server -b :: 8080 \
  >/dev/null 2>&1) &
HTTP_C=$!
CLEANUPS+=("kill $HTTP_C 2>/dev/null")
http_c_up() { in_ns C curl -s -o /dev/null "http://[::1]:8080/"; }
wait_until 10 http_c_up
in_ns A curl -s -g --max-time 30 -o "$WORK/got-c.bin" "http://${NPUB[C]}.fips:8080/big.bin" \
  --resolve "${NPUB[C]}.fips:8080:[$ADDR_C]"
got=$(sha256sum < "$WORK/got-c.bin" 2>/dev/null | cut -d' ' -f1)
check "HTTP GET by name A→C of the 10 MB file arrives intact" test "$want" = "$got"

check "B's show transports: tcp connections_accepted >= 1" wait_until 3 at_least_stat B connections_accepted 1
check "B's show transports: tcp pool_inbound >= 1" at_least_stat B pool_inbound 1
check "B's show transports: tcp bytes_recv > 1 MB (iperf3 A→B)" at_least_stat B bytes_recv 1000000
check "A's show transports: tcp connections_established >= 1" at_least_stat A connections_established 1
echo "# B tcp: accepted $(tcp_stat B connections_accepted), bytes_recv $(tcp_stat B bytes_recv), packets_recv $(tcp_stat B packets_recv)"

# --- Abuse of B's TCP port, from A's namespace.
abuse() { in_ns A "$PY" - "$@"; }
abuse <<'PY'
import socket
for i in range(300):  # a port scan: connect and leave at once
    s = socket.socket(); s.settimeout(2)
    try:
        s.connect(("10.98.1.2", 8443))
    except OSError:
        pass
    s.close()
PY
STREAMS=$(abuse <<'PY'
import os, random, socket, time
deadline = time.time() + 15
n = 0
while n < 10000 and time.time() < deadline:
    data = bytearray(os.urandom(random.choice([1, 3, 4, 5, 16, 114, 200, 1500, 5000])))
    if len(data) >= 4 and random.random() < 0.3:
        data[0] = random.choice([0x00, 0x01, 0x02])
    s = socket.socket(); s.settimeout(2)
    try:
        s.connect(("10.98.1.2", 8443))
        s.sendall(bytes(data))
    except OSError:
        pass
    s.close()
    n += 1
print(n)
PY
)
echo "# random byte streams sent: $STREAMS"
in_ns A curl -s --max-time 3 -o /dev/null "http://10.98.1.2:8443/" 2>/dev/null
in_ns A curl -s -k --max-time 3 -o /dev/null "https://10.98.1.2:8443/" 2>/dev/null
check "HTTP and TLS: B counts framing errors" wait_until 3 at_least_stat B framing_errors 2
check "after scan and random streams: B's suite up, tcp worker never restarted" bash -c \
  "kill -0 ${SUITE[B]} && ! grep -q 'tcp exited\\|tcp worker exited' $WORK/B.log"
check "after scan and random streams: ping A→B" wait_until 5 ping_b

# Slowloris: 300 idle connections held open.
abuse > "$WORK/slow.txt" <<'PY' &
import socket, time
socks = []
for i in range(300):
    s = socket.socket(); s.settimeout(2)
    try:
        s.connect(("10.98.1.2", 8443)); socks.append(s)
    except OSError:
        pass
opened = time.time()
time.sleep(3)
# Refused (over the cap) ones read EOF at once; accepted ones hold until 30 s.
def closed(s):
    s.settimeout(0.01)
    try:
        return s.recv(1) == b""
    except socket.timeout:
        return False
    except OSError:
        return True
early = sum(closed(s) for s in socks)
time.sleep(max(0, opened + 32 - time.time()))
late = sum(closed(s) for s in socks)
print(len(socks), early, late)
PY
SLOW=$!
sleep 4
check "300 idle connections: B refuses those over the cap (>= 40 rejected)" \
  wait_until 3 at_least_stat B connections_rejected 40
check "300 idle connections held: ping A→B still works" wait_until 5 ping_b
wait "$SLOW"
read -r held early late < "$WORK/slow.txt"
echo "# slowloris: $held connected, $early closed at once (over the cap), $late closed after 32 s"
check "idle connections without a frame are closed after 30 s" test "${late:-0}" -ge "${held:-1}"
check "B counted the first-frame timeouts" at_least_stat B first_frame_timeouts 200
check "after the abuse: B's suite and its tcp worker up, never restarted" bash -c \
  "kill -0 ${SUITE[B]} && ! grep -qi 'tcp.*exited' $WORK/B.log"
check "after the abuse: one A–B link, never down" bash -c \
  "[ \$(grep -c 'link down: ${NPUB[B]}' $WORK/A.log) -eq 0 ]"
echo "# B tcp: $("$BUILD/ctl/fipsctl" -s "$WORK/B/control.sock" show transports | grep '^tcp' | tr '\n' ' ')"

# --- kill -9 of the TCP worker (dialing side, then listening side).
for side in A B; do
  pid=$(child_pid "${SUITE[$side]}" fips-tcp)
  kill -9 "$pid"
  T0=$(date +%s%N)
  check "kill -9 of $side's tcp worker: ping A→B within 5 s" wait_until 5 ping_b
  echo "# $side's worker killed: ping back after $(( ($(date +%s%N) - T0) / 1000000 )) ms"
done
sleep 1
check "worker kills: the A–B link was never declared dead" bash -c \
  "[ \$(grep -c 'link down: ${NPUB[B]}' $WORK/A.log) -eq 0 ]"

# --- fipsctl disconnect, then fipsctl connect PEER ADDR tcp.
ctl_a() { "$BUILD/ctl/fipsctl" -s "$WORK/A/control.sock" "$@"; }
UPS=$(grep -c "link up: ${NPUB[B]}" "$WORK/A.log")
ctl_a disconnect "${NPUB[B]}" >/dev/null
ctl_a connect "${NPUB[B]}" 10.98.1.2:8443 tcp > "$WORK/connect.txt" 2>&1
RC=$?
echo "# fipsctl connect: $(cat "$WORK/connect.txt")"
check "fipsctl connect B 10.98.1.2:8443 tcp succeeds" test "$RC" -eq 0
check "fipsctl connect over tcp: the link comes back" wait_until 10 bash -c \
  "[ \$(grep -c 'link up: ${NPUB[B]}' $WORK/A.log) -gt $UPS ]"
check "after connect: ping A→B" wait_until 5 ping_b

[ "$FAILED" -eq 0 ] || for n in A B C; do echo "--- $n.log"; tail -25 "$WORK/$n.log"; done
finish
