#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Static peer addresses of every form: host names resolved at connect time
# by the UDP worker (the router has no sockets), then numeric IPv6 with and
# without a scope id (link-local over the veth):
#
#   ns rA-$$                           ns rB-$$
#   fips (A) [::]:2121 ---- veth ---- 10.99.2.2:2121 fips (B)
#   /etc/netns/rA-$$/hosts:            (B lists no peers)
#     10.99.2.2     node-b.test
#     fd00::1234    mesh-b.test
#   /etc/netns/rA-$$/resolv.conf: nameserver 127.0.0.1 (nothing listens)
#
# `ip netns exec` bind-mounts /etc/netns/<ns>/* over /etc/* for what it
# runs, so A's worker resolves these names without touching the host's
# files, and no DNS query leaves A's namespace. A lists B as
# node-b.test:2121, a peer C as nowhere.test:2121 (no such name) and a peer
# D as mesh-b.test:2121 (fd00::/8). Checks: the link to B comes up over the
# resolved (v4-mapped) address; C is logged as unresolvable and retried
# without a crash or worker restart; D's answer is refused as the mesh
# itself and never dialed. Then A dials B at [fe80::b%vA-$$]:2121 and at
# [2001:db8:4::2]:2121 (B bound to [::]:2121) and each link comes up.
# Last, B's name first points at a dead address and is then corrected while
# A keeps dialing: the link is up within 10 s of the change.
set -u
BUILD=${1:?usage: resolve-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

A=rA-$$ B=rB-$$
mkdir -p "/etc/netns/$A"
CLEANUPS+=("rm -rf /etc/netns/$A")
cat > "/etc/netns/$A/hosts" <<HOSTS
127.0.0.1 localhost
10.99.2.2 node-b.test
fd00::1234 mesh-b.test
HOSTS
echo "nameserver 127.0.0.1" > "/etc/netns/$A/resolv.conf"
node_ns A "$A"
node_ns B "$B"
veth_link A B 10.99.2.1/24 10.99.2.2/24 vA-$$ vB-$$

netns_workdir
node_keygen A B C D
NPUB_A=${NPUB[A]}
NPUB_B=${NPUB[B]}
node_config A --bind "[::]:2121" \
  --peer B node-b.test:2121 --alias b \
  --peer C nowhere.test:2121 --alias c \
  --peer D mesh-b.test:2121 --alias d
node_config B --bind 10.99.2.2:2121

# The bind mount works for a process in the namespace (and only there).
check "netns hosts file: node-b.test resolves inside A" bash -c \
  "ip netns exec $A getent ahostsv4 node-b.test | grep -q 10.99.2.2"
check "netns hosts file: the host itself does not know node-b.test" bash -c \
  "! getent hosts node-b.test >/dev/null"

start_suite B
start_suite A
check "B by host name: resolved" \
  wait_until 10 grep -q "peer b: node-b.test:2121 resolves to ::ffff:10.99.2.2" "$WORK/A.log"
check "B by host name: link up on A" wait_until 10 grep -q "link up: $NPUB_B" "$WORK/A.log"
check "B by host name: link up on B" wait_until 5 grep -q "link up: $NPUB_A" "$WORK/B.log"
check "unresolvable name: logged" \
  wait_until 5 grep -q "peer c: cannot resolve nowhere.test:2121" "$WORK/A.log"
check "unresolvable name: retried" wait_until 10 bash -c \
  "[ \$(grep -c 'peer c: cannot resolve nowhere.test:2121' $WORK/A.log) -ge 3 ]"
check "fd00::/8 answer: refused" \
  grep -q "peer d: mesh-b.test:2121 resolves to fd00::1234, in fd00::/8 (the mesh itself): refused" \
  "$WORK/A.log"
check "fd00::/8 answer: never handed to the link engine" \
  bash -c "! grep -qE 'peer d: mesh-b.test:2121 resolves to fd00::1234($| \\()' $WORK/A.log"
check "suite A still running" kill -0 "${SUITE[A]}"
check "A's udp worker never restarted" bash -c "! grep -q 'udp worker exited' $WORK/A.log"
check "no fatal or critical line on A" bash -c "! grep -qiE 'critical|fatal' $WORK/A.log"
check "link to B still up (one link, no flap)" bash -c \
  "[ \$(grep -c 'link up: $NPUB_B' $WORK/A.log) -eq 1 ] && ! grep -q 'link down' $WORK/A.log"
stop_suite A
stop_suite B

# --- numeric IPv6: link-local with the scope named, and global
ip -n "$A" addr add fe80::a/64 dev vA-$$ nodad
ip -n "$B" addr add fe80::b/64 dev vB-$$ nodad
ip -n "$A" addr add 2001:db8:4::1/64 dev vA-$$ nodad
ip -n "$B" addr add 2001:db8:4::2/64 dev vB-$$ nodad
node_config B --bind "[::]:2121"
for addr in "[fe80::b%vA-$$]:2121" "[2001:db8:4::2]:2121"; do
  node_config A --bind "[::]:2121" --peer B "$addr"
  : > "$WORK/A.log"
  start_suite B
  start_suite A
  shown=${addr%%\%*}
  shown=${shown%]:2121}
  check "IPv6 $addr: link up" wait_until 10 grep -qF "link up: $NPUB_B via $shown]:2121" "$WORK/A.log"
  stop_suite A
  stop_suite B
done
# --- a name that moves while its peer is down (issue #25): A first finds
# B's name at an address where nothing answers; the hosts entry is then
# corrected (in place: `ip netns exec` bind-mounted this very file). The
# next dial must use the new address, not wait out a 60 s cache.
write_hosts() {
  printf '127.0.0.1 localhost\n%s moving.test\n' "$1" > "/etc/netns/$A/hosts"
}
write_hosts 10.99.2.9
node_config B --bind 10.99.2.2:2121
node_config A --bind "[::]:2121" --peer B moving.test:2121 --alias b
: > "$WORK/A.log"
start_suite B
start_suite A
check "moving name: first answer is the dead address" \
  wait_until 10 grep -q "peer b: moving.test:2121 resolves to ::ffff:10.99.2.9" "$WORK/A.log"
sleep 2  # a dial or two at the dead address
write_hosts 10.99.2.2
T0=$(date +%s%N)
check "moving name: the new address is looked up" \
  wait_until 15 grep -q "peer b: moving.test:2121 resolves to ::ffff:10.99.2.2" "$WORK/A.log"
check "moving name: link up at the new address" wait_until 15 grep -q "link up: $NPUB_B" "$WORK/A.log"
ELAPSED_MS=$(( ($(date +%s%N) - T0) / 1000000 ))
echo "# moving name: link up ${ELAPSED_MS} ms after the hosts entry changed"
check "moving name: link up within 10 s of the change (not after the 60 s cache)" \
  test "$ELAPSED_MS" -lt 10000
stop_suite A
stop_suite B

[ "$FAILED" -eq 0 ] || { echo "--- A.log"; tail -40 "$WORK/A.log"; echo "--- B.log"; tail -20 "$WORK/B.log"; }
finish
