#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Another VPN's catch-all policy rule does not take mesh traffic (issue #25,
# failure 4):
#
#   ns pA-$$  fips (A, TUN fips0) 10.96.1.1 ---- veth ---- 10.96.1.2  fips (B, TUN fips0)  ns pB-$$
#   both:     ip -6 route add blackhole default table 100   (the "other tunnel")
#   A before start, B after start:  ip -6 rule add from all lookup 100 pref 100
#
# The underlay is IPv4, so the IPv6 catch-all takes only fips0's traffic.
# Without the guard ahead of it, every mesh packet of the node holding the
# rule goes into the blackhole (the reference's rule sits at pref 5265, after
# it). Checks: A starts with its rule at pref 99 and logs a warning naming
# the catch-all; pings A->B work; the catch-all added on B while it runs
# moves B's rule to 99 within a second (netlink notification), with the
# warning, and pings keep working (B's replies would be blackholed); the
# catch-all removed, B's rule goes back to 5265; a deleted guard rule comes
# back; after stopping, neither namespace holds an fd00::/8 rule.
set -u
BUILD=${1:?usage: policy-rule-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
for t in dig ping; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done

line_nodes p 10.96 A B -- --tun --dns ::1 5354 || exit 1
for n in A B; do in_ns "$n" ip -6 route add blackhole default table 100; done
in_ns A ip -6 rule add from all lookup 100 pref 100

start_suite A
start_suite B
suite_up() { grep -q "TUN fips0 ready" "$WORK/$1.log" && grep -q "DNS responder" "$WORK/$1.log"; }
all_up() { suite_up A && suite_up B && links_up A B; }
if ! wait_until 20 all_up; then
  check "both suites up with TUN and the link" false
  tail -30 "$WORK/A.log" "$WORK/B.log"
  finish
  exit
fi

guard_at() { in_ns "$1" ip -6 rule show | grep -q "^$2:[[:space:]]*from all to fd00::/8 lookup main"; }
no_guard_at() { ! guard_at "$1" "$2"; }
WARNING="policy rule 'pref 100 from all lookup 100' would capture mesh traffic to fd00::/8"
check "A (catch-all before start): guard rule at pref 99" guard_at A 99
check "A: no guard rule at 5265" no_guard_at A 5265
check "A: the warning names the catch-all" grep -qF "$WARNING" "$WORK/A.log"

ADDR_B=$(in_ns A dig +short AAAA "${NPUB[B]}.fips" @::1 -p 5354 2>/dev/null | head -1)
check "A knows B's mesh address ($ADDR_B)" test -n "$ADDR_B"
ping_b() { in_ns A ping -6 -c 1 -W 1 "$ADDR_B" >/dev/null 2>&1; }
pings_b() { in_ns A ping -6 -c 3 -i 0.2 -W 2 "$ADDR_B" 2>/dev/null | grep -q ' 3 received'; }
check "ping A->B through A's catch-all" wait_until 15 ping_b
check "ping -c 3 A->B: 3 of 3" pings_b

# The catch-all on B while B runs: its replies to A would be blackholed.
check "B (no catch-all yet): guard rule at pref 5265" guard_at B 5265
in_ns B ip -6 rule add from all lookup 100 pref 100
check "B: guard rule moved to pref 99 within 1 s of the new rule" wait_until 1 guard_at B 99
check "B: the warning names the catch-all" wait_until 2 grep -qF "$WARNING" "$WORK/B.log"
check "B: guard rule at 5265 removed" wait_until 1 no_guard_at B 5265
check "ping -c 3 A->B with catch-alls on both: 3 of 3" pings_b

# Someone deletes the guard rule: it comes back.
in_ns B ip -6 rule del pref 99
check "B: a deleted guard rule is put back" wait_until 1 guard_at B 99
# The catch-all goes away: back to the reference's place.
in_ns B ip -6 rule del pref 100
check "B: catch-all gone, guard rule back at 5265" wait_until 1 guard_at B 5265
check "B: move logged" grep -q "moved from pref 99 to pref 5265" "$WORK/B.log"
check "ping -c 3 A->B afterwards: 3 of 3" pings_b
check "no fatal or critical line" bash -c "! grep -qiE 'critical|fatal' $WORK/A.log $WORK/B.log"

stop_suite A
stop_suite B
check "after stop: no fd00::/8 rule left on A" bash -c "! ip -n ${NODE_NS[A]} -6 rule show | grep -q fd00::/8"
check "after stop: no fd00::/8 rule left on B" bash -c "! ip -n ${NODE_NS[B]} -6 rule show | grep -q fd00::/8"
[ "$FAILED" -eq 0 ] || { echo "--- A.log"; tail -30 "$WORK/A.log"; echo "--- B.log"; tail -30 "$WORK/B.log"; }
finish
