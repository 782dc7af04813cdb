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
check "port 53: router still without capabilities" \
  bash -c "[ \"\$(awk '/^CapEff:/ {print \$2}' /proc/\$(pgrep -P ${SUITE[D]} -x fips-router)/status)\" = 0000000000000000 ]"
stop_suite D
check "suite stopped cleanly (port 53)" test $? -eq 0
finish
