#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The `.fips` DNS responder of a real fips suite, asked with real `dig`:
#
#   ns dns-$$: fips (TUN fips0 up, dns.bind_addr "::", port 5354,
#              hosts file $WORK/hosts via FIPS_HOSTS_FILE)
#              dig @::1 -p 5354 ...          (arrives on lo: answered)
#              dig @<own fd00:: address> ... (arrives on fips0: dropped)
#
# Checks: AAAA for <npub>.fips gives the derived address (identity.json)
# over UDP and TCP (+tcp: pipelining, framing split across writes, zero
# length, the 16-connection limit, the 10 s idle timeout), negative answers
# with the zone's SOA (RFC 2308), the apex fips. NOERROR (RFC 8020),
# with AA and TTL 300; a hosts-file alias resolves, and one added while
# running resolves after the reload; A for a resolvable name is NOERROR with
# no answer; unknown .fips name, bad npub and a name outside .fips are
# NXDOMAIN with AA; garbage gets no reply; a query arriving over fips0 gets
# no reply; 10,000 random datagrams at the port crash nothing and a real
# query is answered afterwards; with dns.port 53 the tun-helper binds the
# socket and the router (no capabilities) answers on it.
set -u
BUILD=${1:?usage: dns-test.sh BUILD_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v dig >/dev/null || { echo "SKIP: dig not installed (bind9-dnsutils)"; exit 77; }

N=dns-$$
node_ns D "$N"
netns_workdir
node_keygen D

# Three identities from the vectors: (npub, ipv6) each.
VECTORS="$HERE/../vectors/identity.json"
vec() { python3 -c "import json,sys; v=json.load(open('$VECTORS'))['valid'][$1]; print(v['$2'])"; }
NPUB0=$(vec 0 npub) IP0=$(vec 0 ipv6)
NPUB1=$(vec 1 npub) IP1=$(vec 1 ipv6)
NPUB2=$(vec 2 npub) IP2=$(vec 2 ipv6)
BAD_NPUB=${NPUB0%?}$([ "${NPUB0: -1}" = q ] && echo p || echo q)

node_config D --tun --dns :: 5354 --bind "[::1]:2121"
printf '# test hosts file\ngateway %s\nbad_host %s\n' "$NPUB1" "$NPUB1" > "$WORK/hosts"

FIPS_HOSTS_FILE="$WORK/hosts" start_suite D
router_up() { grep -q "DNS responder for .fips" "$WORK/D.log" && grep -q "TUN fips0 ready" "$WORK/D.log"; }
if ! wait_until 15 router_up; then
  cat "$WORK/D.log"
  check "suite started with its DNS responder" false
  finish
  exit
fi
OWN=$(sed -n 's/.* address \(fd[0-9a-f:]*\).*/\1/p' "$WORK/D.log" | head -1)

# q SERVER TYPE NAME: dig's full answer (one try, 2 s).
q() { ip netns exec "$N" dig @"$1" -p 5354 +tries=1 +time=2 "$2" "$3" 2>&1; }
status_is() { grep -q "status: $2," <<<"$1"; }
has_aa() { grep -Eq "^;; flags: qr aa[ ;]" <<<"$1"; }
answers() { grep -Ec "^[^;].*[[:space:]]IN[[:space:]]+AAAA[[:space:]]" <<<"$1"; }
answer_is() {  # answer_is OUTPUT NAME ADDRESS: exactly one AAAA, TTL 300
  [ "$(answers "$1")" -eq 1 ] &&
    grep -Eiq "^$2\.?[[:space:]]+300[[:space:]]+IN[[:space:]]+AAAA[[:space:]]+$3$" <<<"$1"
}
no_reply() { grep -q "no servers could be reached\|timed out" <<<"$1"; }

OUT=$(q ::1 AAAA "$NPUB0.fips")
check "AAAA <npub>.fips: NOERROR" status_is "$OUT" NOERROR
check "AAAA <npub>.fips: AA flag" has_aa "$OUT"
check "AAAA <npub>.fips: the derived address, TTL 300" answer_is "$OUT" "$NPUB0.fips" "$IP0"

OUT=$(q 127.0.0.1 AAAA "$NPUB0.FIPS.")
check "AAAA over IPv4 to the dual-stack socket, upper-case suffix" \
  answer_is "$OUT" "$NPUB0.FIPS" "$IP0"

OUT=$(q ::1 AAAA gateway.fips)
check "hosts-file alias resolves" answer_is "$OUT" gateway.fips "$IP1"
check "bad hosts-file line reported with file:line" grep -q "$WORK/hosts:3: invalid hostname 'bad_host'" "$WORK/D.log"

OUT=$(q ::1 AAAA server2.fips)
check "alias not yet in the hosts file: NXDOMAIN" status_is "$OUT" NXDOMAIN
printf 'server2 %s\n' "$NPUB2" >> "$WORK/hosts"
OUT=$(q ::1 AAAA server2.fips)
check "alias added while running resolves after the reload" answer_is "$OUT" server2.fips "$IP2"
check "reload logged" grep -q "reloaded hosts file $WORK/hosts" "$WORK/D.log"

OUT=$(q ::1 A "$NPUB0.fips")
check "A for a resolvable name: NOERROR" status_is "$OUT" NOERROR
check "A for a resolvable name: AA, no answer" bash -c "$(declare -f has_aa answers); has_aa \"\$1\" && [ \"\$(answers \"\$1\")\" -eq 0 ] && grep -q 'ANSWER: 0,' <<<\"\$1\"" _ "$OUT"

for name in unknown.fips "$BAD_NPUB.fips" example.com "$NPUB0.example"; do
  OUT=$(q ::1 AAAA "$name")
  check "$name: NXDOMAIN" status_is "$OUT" NXDOMAIN
  check "$name: AA flag" has_aa "$OUT"
done

# RFC 2308: a negative answer in the zone carries its SOA (TTL and MINIMUM
# min(dns.ttl, 60)); RFC 8020: the apex has children, so NOERROR, not NXDOMAIN.
soa_in_authority() {
  grep -A2 "AUTHORITY SECTION" <<<"$1" |
    grep -Eq "^fips\.[[:space:]]+60[[:space:]]+IN[[:space:]]+SOA[[:space:]]+fips\. hostmaster\.fips\. 1 3600 600 86400 60$"
}
OUT=$(q ::1 AAAA unknown.fips)
check "unknown.fips: NXDOMAIN with the zone's SOA in authority" soa_in_authority "$OUT"
OUT=$(q ::1 A "$NPUB0.fips")
check "A for a resolvable name (NODATA): SOA in authority" soa_in_authority "$OUT"
OUT=$(q ::1 AAAA example.com)
check "example.com (not our zone): no SOA" bash -c "! grep -q 'AUTHORITY: [1-9]' <<<\"\$1\"" _ "$OUT"
for qtype in AAAA A; do
  OUT=$(q ::1 "$qtype" fips.)
  check "apex fips. $qtype: NOERROR" status_is "$OUT" NOERROR
  check "apex fips. $qtype: AA, no answer, SOA in authority" \
    bash -c "$(declare -f has_aa soa_in_authority); has_aa \"\$1\" && grep -q 'ANSWER: 0,' <<<\"\$1\" && soa_in_authority \"\$1\"" _ "$OUT"
done
OUT=$(q ::1 SOA fips.)
check "apex fips. SOA: the SOA as the answer" \
  grep -Eq "^fips\.[[:space:]]+60[[:space:]]+IN[[:space:]]+SOA[[:space:]]+fips\. hostmaster\.fips\. 1 " <<<"$OUT"

# RFC 7766: the same responder over TCP on the same address and port.
qt() { ip netns exec "$N" dig @"$1" -p "${4:-5354}" +tcp +tries=1 +time=2 "$2" "$3" 2>&1; }
OUT=$(qt ::1 AAAA "$NPUB0.fips")
check "dig +tcp AAAA <npub>.fips: the derived address, TTL 300" answer_is "$OUT" "$NPUB0.fips" "$IP0"
check "dig +tcp: went over TCP" grep -q "(TCP)" <<<"$OUT"
OUT=$(qt 127.0.0.1 AAAA unknown.fips)
check "dig +tcp over IPv4, unknown.fips: NXDOMAIN with SOA" \
  bash -c "$(declare -f status_is soa_in_authority); status_is \"\$1\" NXDOMAIN && soa_in_authority \"\$1\"" _ "$OUT"
# Pipelining (two queries before reading), a split length prefix, a zero
# length (closed), more connections than the limit (the extra ones closed),
# and an idle connection closed after 10 s.
TCP=$(ip netns exec "$N" python3 - "$NPUB0" <<'PY'
import socket, struct, sys, time
npub = sys.argv[1]
def query(qid, name, qtype=28):
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\x00" + struct.pack(">HH", qtype, 1)
def framed(m): return struct.pack(">H", len(m)) + m
def read_msg(s):
    head = b""
    while len(head) < 2:
        chunk = s.recv(2 - len(head))
        if not chunk: return None
        head += chunk
    n, = struct.unpack(">H", head)
    body = b""
    while len(body) < n:
        chunk = s.recv(n - len(body))
        if not chunk: return None
        body += chunk
    return body
def conn():
    s = socket.create_connection(("::1", 5354), timeout=3)
    return s
out = []
s = conn()
s.sendall(framed(query(1, npub + ".fips")) + framed(query(2, "unknown.fips"))[:1])
time.sleep(0.2)
s.sendall(framed(query(2, "unknown.fips"))[1:])
a, b = read_msg(s), read_msg(s)
out.append("pipelined" if a and b and a[:2] == b"\x00\x01" and b[:2] == b"\x00\x02"
           and (b[3] & 0xF) == 3 else "pipelined-bad")
s.close()
s = conn()
s.sendall(b"\x00\x00")
out.append("zero-closed" if read_msg(s) is None else "zero-open")
s.close()
held = [conn() for _ in range(20)]
time.sleep(0.3)
served = 0
for c in held:
    try:
        c.sendall(framed(query(3, npub + ".fips")))
        if read_msg(c) is not None: served += 1
    except OSError:
        pass
out.append("served=%d" % served)
for c in held: c.close()
time.sleep(0.3)
s = conn()
t0 = time.time()
s.settimeout(15)
r = read_msg(s)
out.append("idle-closed" if r is None and 8 <= time.time() - t0 <= 13 else "idle-%.1f" % (time.time() - t0))
print(" ".join(out))
PY
)
check "TCP: pipelined queries answered in order, length split across writes ($TCP)" grep -q "pipelined " <<<"$TCP "
check "TCP: a zero-length message closes the connection" grep -q "zero-closed" <<<"$TCP"
check "TCP: of 20 connections at once, the first 16 served, the rest closed" grep -q "served=16" <<<"$TCP"
check "TCP: an idle connection is closed after ~10 s" grep -q "idle-closed" <<<"$TCP"

# Garbage: no reply (the reference drops what it cannot parse).
GARBAGE=$(ip netns exec "$N" python3 - <<'PY'
import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.settimeout(1.0)
replies = 0
for payload in (b"hello world!", b"\x00" * 5, b"\x12\x34\x01\x40" + b"\x00\x01" + b"\x00" * 6):
    s.sendto(payload, ("::1", 5354))
    try:
        s.recv(2048)
        replies += 1
    except socket.timeout:
        pass
print(replies)
PY
)
check "garbage, a short datagram, a Z-bit header: no reply" test "$GARBAGE" = 0

# Over fips0: a query to the node's own fd00:: address is attributed to fips0
# by IPV6_PKTINFO (the reference's mesh-interface filter case).
OUT=$(q "$OWN" AAAA "$NPUB0.fips")
check "query arriving over fips0 ($OWN): no reply" no_reply "$OUT"
check "mesh-interface drop logged" grep -q "DNS: dropping queries that arrive on the mesh interface" "$WORK/D.log"
OUT=$(qt "$OWN" AAAA "$NPUB0.fips")
check "TCP from an fd00::/8 address ($OWN): closed unanswered" bash -c "! grep -q 'status:' <<<\"\$1\"" _ "$OUT"

# 10,000 random datagrams (random length 0..600), then a real query.
ip netns exec "$N" python3 - <<'PY'
import os, random, socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
rng = random.Random(6)
for i in range(10000):
    n = rng.randrange(0, 601)
    data = bytearray(os.urandom(n))
    if n >= 12 and i % 2 == 0:
        data[2] &= 0x7F; data[3] &= 0xBF; data[4:6] = b"\x00\x01"  # header-shaped
    s.sendto(bytes(data), ("::1", 5354))
PY
sleep 1
check "router alive after 10,000 random datagrams" bash -c "pgrep -P ${SUITE[D]} -x fips-router >/dev/null"
OUT=$(q ::1 AAAA "$NPUB0.fips")
check "a real query is answered afterwards" answer_is "$OUT" "$NPUB0.fips" "$IP0"

stop_suite D
check "suite stopped cleanly" test $? -eq 0

# A privileged port: the tun-helper binds [::1]:53 as root and hands the
# socket to the router (tun.capnp dnsSocketReady).
node_config D --tun --dns ::1 53 --bind "[::1]:2121"
: > "$WORK/D.log"
FIPS_HOSTS_FILE="$WORK/hosts" start_suite D
check "port 53: the tun-helper binds it and the router serves it" \
  wait_until 15 grep -q "DNS responder for .fips on \[::1\]:53" "$WORK/D.log"
check "port 53: bound by the tun-helper" grep -q "bound DNS socket \[::1\]:53 for the router" "$WORK/D.log"
OUT=$(ip netns exec "$N" dig @::1 -p 53 +tries=1 +time=2 AAAA gateway.fips 2>&1)
check "port 53: alias answered" answer_is "$OUT" gateway.fips "$IP1"
OUT=$(qt ::1 AAAA "$NPUB0.fips" 53)
check "port 53 over TCP (listener bound by the tun-helper): answered" answer_is "$OUT" "$NPUB0.fips" "$IP0"
check "port 53: TCP listener bound by the tun-helper" \
  grep -q "bound DNS TCP listener \[::1\]:53 for the router" "$WORK/D.log"
check "port 53: router still without capabilities" \
  bash -c "[ \"\$(awk '/^CapEff:/ {print \$2}' /proc/\$(pgrep -P ${SUITE[D]} -x fips-router)/status)\" = 0000000000000000 ]"
stop_suite D
check "suite stopped cleanly (port 53)" test $? -eq 0
finish
