#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A neighbour's graceful restart (issue #25, failure 3): systemctl restart
# is SIGTERM then start. The restarted node sends Disconnect and comes back
# with a new startup epoch and no sessions; traffic to it and through it must
# be back within seconds, not at the next session rekey (~2 min).
#
#   rA ---- rB ---- rC     veth pairs 10.96.1.0/24 and 10.96.2.0/24,
#                          every node with fips0 and its .fips DNS responder
#
# Checks: A pings B's and C's fips0 addresses (A learns C's key by DNS);
# then B's suite is stopped with SIGTERM and started again at once, and A's
# pings to B (the restarted neighbour itself) and to C (through it) each get
# a reply again within 10 s (measured from the restart, printed); then C is
# restarted the same way and A's pings to C (two hops away: no link of A's
# went down, A's session with C has to be re-established end to end) get a
# reply within 10 s too.
set -u
BUILD=${1:?usage: restart-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
for t in dig ping; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
LIMIT=10    # seconds within which traffic must be back
PATIENCE=40 # how long to wait for it at all (to report the figure)

NODES=(A B C)
line_nodes r 10.96 "${NODES[@]}" -- --tun --dns ::1 5354 || exit 1
for n in "${NODES[@]}"; do start_suite "$n"; done

suite_up() { grep -q "TUN fips0 ready" "$WORK/$1.log" && grep -q "DNS responder" "$WORK/$1.log"; }
all_up() { suite_up A && suite_up B && suite_up C && links_up B A C; }
check "three suites up with TUN, DNS and both links of B" wait_until 20 all_up

fips_addr() { grep -o "address fd[0-9a-f:]*" "$WORK/$1.log" | head -1 | cut -d' ' -f2; }
ADDR_B=$(fips_addr B)
ADDR_C=$(in_ns A dig +short AAAA "${NPUB[C]}.fips" @::1 -p 5354 2>/dev/null | head -1)
check "A resolves C's npub.fips to C's address ($ADDR_C)" test "$ADDR_C" = "$(fips_addr C)"
ping_once() { in_ns A ping -6 -c 1 -W 1 "$1" >/dev/null 2>&1; }
check "A pings B ($ADDR_B)" wait_until 20 ping_once "$ADDR_B"
check "A pings C through B ($ADDR_C)" wait_until 20 ping_once "$ADDR_C"

# recovery NAME ADDR T0: pings ADDR from A until a reply, for PATIENCE s;
# writes the seconds since T0 (ns) to $WORK/NAME.secs ("none" if no reply).
recovery() {
  local deadline=$(( $3 + PATIENCE * 1000000000 ))
  while [ "$(date +%s%N)" -lt "$deadline" ]; do
    if ping_once "$2"; then
      awk -v t="$(date +%s%N)" -v t0="$3" 'BEGIN { printf "%.1f\n", (t - t0) / 1e9 }' \
        > "$WORK/$1.secs"
      return 0
    fi
    sleep 0.2
  done
  echo none > "$WORK/$1.secs"
}
# within NAME: the recovery NAME took at most LIMIT seconds.
within() { awk -v s="$(cat "$WORK/$1.secs")" -v l="$LIMIT" 'BEGIN { exit !(s != "none" && s <= l) }'; }

# --- B: SIGTERM, then start again at once (systemctl restart)
stop_suite B TERM
T0=$(date +%s%N)
start_suite B
recovery toB "$ADDR_B" "$T0" &
P1=$!
recovery toC "$ADDR_C" "$T0" &
P2=$!
wait "$P1" "$P2"
echo "# after B's restart: A->B back in $(cat "$WORK/toB.secs") s, A->C (through B) in $(cat "$WORK/toC.secs") s"
check "A->B (the restarted neighbour) answers within $LIMIT s" within toB
check "A->C (through the restarted B) answers within $LIMIT s" within toC

# --- C (two hops from A): the same; A's session with C survives no link loss of A's
wait_until 10 links_up C B
stop_suite C TERM
T0=$(date +%s%N)
start_suite C
recovery farC "$ADDR_C" "$T0"
echo "# after C's restart: A->C (two hops) back in $(cat "$WORK/farC.secs") s"
check "A->C (the restarted node two hops away) answers within $LIMIT s" within farC

for n in "${NODES[@]}"; do stop_suite "$n"; done
if [ "$FAILED" -ne 0 ]; then
  for n in "${NODES[@]}"; do echo "--- $n.log"; tail -20 "$WORK/$n.log"; done
fi
finish
