#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two nodes made by `fipsctl init` alone, as a new user would (issue #24):
#
#   ns iA-$$                                   ns iB-$$
#   fipsctl init -d $WORK/A                    fipsctl init -d $WORK/B
#     --listen 10.96.0.1:2121                    --listen 10.96.0.2:2121
#     --peer <B>@10.96.0.2:2121 --dns '[::1]:53'    --peer <A>@10.96.0.1:2121 --dns '[::1]:53'
#   fips -c $WORK/A/fips.yaml ---- veth ---- fips -c $WORK/B/fips.yaml
#
# Checks: init's output (and that of a bare `init`) passes `fips --check`;
# a second init refuses to replace fips.yaml, --force replaces it and keeps
# fips.key byte for byte (cmp); each node comes up with fips0 in its
# namespace and answers `fipsctl -c DIR/fips.yaml status` with its npub;
# the two link, `show peers` names the other's fd00:: address, and each
# pings the other by <npub>.fips through its own .fips resolver (/etc/netns
# resolv.conf pointing at ::1, port 53 as the demo).
set -u
BUILD=${1:?usage: init-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

CTL=$BUILD/ctl/fipsctl
quiet() { "$@" > /dev/null; }
node_ns A "iA-$$"
node_ns B "iB-$$"
veth_link A B 10.96.0.1/24 10.96.0.2/24 viA-$$ viB-$$
for n in A B; do
  mkdir -p "/etc/netns/${NODE_NS[$n]}"
  printf 'nameserver ::1\n' > "/etc/netns/${NODE_NS[$n]}/resolv.conf"
  CLEANUPS+=("rm -rf /etc/netns/${NODE_NS[$n]}")
done
netns_workdir

# A first without peers (B has no key yet), then B naming A, then A again
# naming B: --force replaces A's fips.yaml and keeps its key.
check "init A exits 0" "$CTL" init -d "$WORK/A" --listen 10.96.0.1:2121 --dns '[::1]:53'
NPUB[A]=$(cat "$WORK/A/fips.pub")
check "init B --peer A exits 0" "$CTL" init -d "$WORK/B" --listen 10.96.0.2:2121 --dns '[::1]:53' \
  --peer "${NPUB[A]}@10.96.0.1:2121"
NPUB[B]=$(cat "$WORK/B/fips.pub")
cp "$WORK/A/fips.key" "$WORK/A.key.before"
cp "$WORK/A/fips.yaml" "$WORK/A.yaml.before"
"$CTL" init -d "$WORK/A" --listen 10.96.0.1:2121 --dns '[::1]:53' \
  --peer "${NPUB[B]}@10.96.0.2:2121" > "$WORK/out" 2> "$WORK/err"
check "init again without --force exits 1" [ $? -eq 1 ]
check "... with one line naming fips.yaml" \
  bash -c "[ \$(wc -l < '$WORK/err') -eq 1 ] && grep -q '$WORK/A/fips.yaml already exists' '$WORK/err'"
check "... and leaves fips.yaml as it was" cmp -s "$WORK/A/fips.yaml" "$WORK/A.yaml.before"
"$CTL" init -d "$WORK/A" --listen 10.96.0.1:2121 --dns '[::1]:53' \
  --peer "${NPUB[B]}@10.96.0.2:2121" --force > "$WORK/out"
check "init --force exits 0 and says the key is kept" grep -q "Kept the existing key" "$WORK/out"
check "init --force keeps fips.key byte for byte" cmp "$WORK/A/fips.key" "$WORK/A.key.before"
check "init prints A's npub" grep -q "npub     ${NPUB[A]}" "$WORK/out"

"$CTL" init -d "$WORK/C" > /dev/null
for n in A B C; do
  check "fips --check accepts init's $n/fips.yaml" quiet "$BUILD/fips" --check -c "$WORK/$n/fips.yaml"
done

start_suite A; start_suite B
tun_ready() { grep -q "TUN fips0 ready" "$WORK/$1.log" 2>/dev/null; }
check "A brings fips0 up" wait_until 20 tun_ready A
check "B brings fips0 up" wait_until 20 tun_ready B
check "fips0 exists in A's namespace" quiet in_ns A ip link show fips0
check "fips0 exists in B's namespace" quiet in_ns B ip link show fips0
wait_until 5 test -S "$WORK/A/control.sock"

"$CTL" -c "$WORK/A/fips.yaml" status > "$WORK/status" 2>&1
check "fipsctl -c A/fips.yaml status exits 0" [ $? -eq 0 ]
check "... and shows A's npub" grep -q "^npub     ${NPUB[A]}$" "$WORK/status"
check "FIPS_CONTROL_SOCKET reaches B" bash -c \
  "FIPS_CONTROL_SOCKET='$WORK/B/control.sock' '$CTL' status --json | json_get 'd[\"node\"][\"npub\"]' | grep -qx '${NPUB[B]}'"

check "A and B link" wait_link_up 20 A B
[ -z "${SHOW:-}" ] || "$CTL" -c "$WORK/A/fips.yaml" status
addr_of() { "$CTL" identity --key-file "$WORK/$1/fips.key" --json | json_get 'd["ipv6_addr"]'; }
ADDR_B=$(addr_of B)
peers_has_b() { "$CTL" -c "$WORK/A/fips.yaml" show peers | grep -q "${NPUB[B]}  $ADDR_B  udp"; }
check "show peers at A has B's fd00:: address" wait_until 5 peers_has_b
check "status at A lists B with its address" \
  bash -c "'$CTL' -c '$WORK/A/fips.yaml' status | grep -q '  $ADDR_B  udp  *10.96.0.2:2121'"

ping_name() { in_ns "$1" ping -6 -c 1 -W 1 "${NPUB[$2]}.fips" > /dev/null 2>&1; }
check "A pings B by <npub>.fips" wait_until 20 ping_name A B
check "B pings A by <npub>.fips" wait_until 20 ping_name B A

finish
