#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hitless link rekey between real processes, with loss injected:
#
#   ns kA-$$                      ns kB-$$
#   fips (A) 10.99.4.1:2121 ---- veth ---- 10.99.4.2:2121 fips (B)
#   nft: drop 5% of udp/2121 in from the start, counted         (same on B)
#
# Both nodes run node.rekey.after_secs: 16, the smallest value the config
# (and the reference's) accepts: it must exceed the 15 s rekey jitter. With
# the 30 s rekey dampening and minimum session age, a link rekeys about
# every 30 s. Traffic: heartbeats every second each way, plus the mesh
# layer's link messages (tree announces, bloom filters). Before FSP sessions
# (#6) nothing else can be driven between real processes.
#
# Checks over DURATION seconds: the link never drops (one link up per side,
# no link down, so no re-handshake), several rekeys complete on both sides,
# and nothing is lost beyond what nft dropped: every datagram a router sent
# reached the other side's nft, and what nft did not drop reached the
# router, and no frame was refused by either link engine (no decrypt,
# replay or unknown index drops). Two handshake drops are not data and are
# allowed: rekey msg1s refused by the dual-initiation tie-break, and stale
# msg2s (a rekey msg1 that reaches a session younger than 30 s is answered,
# as in the reference, with the session's own handshake msg2).
#
# The loss runs from the start, handshake included: B's link is up as it
# sends the handshake msg2 and B sends at once (tree and filter announces,
# heartbeats). Were that msg2 lost, A cannot open those frames; it counts
# them as handshake_pending and resends its msg1 at once, and B's answer
# (the stored msg2) brings the link up a round trip later (router.link
# "after a lost msg2 the responder's first frame brings the link up in one
# RTT"). Those frames, and only those, are allowed as refused.
set -u
BUILD=${1:?usage: rekey-test.sh BUILD_DIR}
DURATION=${REKEY_TEST_SECS:-130}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

A=kA-$$ B=kB-$$
node_ns A "$A"
node_ns B "$B"
veth_link A B 10.99.4.1/24 10.99.4.2/24 vA-$$ vB-$$
# The worker sends runs of datagrams as one UDP GSO packet; a veth that
# takes one segment per packet splits them before the peer's nft sees them,
# so its counters count datagrams.
ip -n "$A" link set vA-$$ gso_max_segs 1
ip -n "$B" link set vB-$$ gso_max_segs 1
for ns in "$A" "$B"; do
  ip netns exec "$ns" nft -f - <<'NFT'
table inet fipstest {
  counter dropped {}
  counter accepted {}
  chain in {
    type filter hook input priority 0;
    udp dport 2121 counter name accepted
  }
}
NFT
done
start_loss() {  # start_loss NS: drop 5% of udp/2121 in from now on, counted
  ip netns exec "$1" nft insert rule inet fipstest in \
    udp dport 2121 numgen random mod 100 '<' 5 counter name dropped drop
}
nft_count() {  # nft_count NS COUNTER: packets counted
  ip netns exec "$1" nft list counter inet fipstest "$2" | awk '/packets/ { print $2 }'
}

netns_workdir
node_keygen A B
NPUB_A=${NPUB[A]}
NPUB_B=${NPUB[B]}
# Only A dials, and only once B is up: B's nft then counts nothing that B's
# router could not have received.
node_config A --bind 10.99.4.1:2121 --dead 6 --node $'rekey:\n  after_secs: 16' \
  --peer B 10.99.4.2:2121
node_config B --bind 10.99.4.2:2121 --dead 6 --node $'rekey:\n  after_secs: 16'

start_loss "$A"
start_loss "$B"
start_suite B
wait_until 10 suite_ready B
start_suite A
check "link up" wait_until 10 bash -c \
  "grep -q 'link up: $NPUB_B' $WORK/A.log && grep -q 'link up: $NPUB_A' $WORK/B.log"
sleep "$DURATION"
REKEYS_A=$(grep -c "link rekeyed: $NPUB_B" "$WORK/A.log")
REKEYS_B=$(grep -c "link rekeyed: $NPUB_A" "$WORK/B.log")
echo "# rekeys in ${DURATION} s: A $REKEYS_A, B $REKEYS_B"
check "several rekeys on A (>= 2)" [ "$REKEYS_A" -ge 2 ]
check "several rekeys on B (>= 2)" [ "$REKEYS_B" -ge 2 ]
check "never dropped: one link up, no link down (A)" bash -c \
  "[ \$(grep -c 'link up' $WORK/A.log) -eq 1 ] && ! grep -q 'link down' $WORK/A.log"
check "never dropped: one link up, no link down (B)" bash -c \
  "[ \$(grep -c 'link up' $WORK/B.log) -eq 1 ] && ! grep -q 'link down' $WORK/B.log"

# A stops first (its Disconnect is the last thing B receives), then B.
stop_suite A
sleep 1
stop_suite B
counter() {  # counter NODE FIELD: a number from the router's counters line
  sed -n "s/.*counters: datagrams in \([0-9]*\) out \([0-9]*\);.*/\1 \2/p" "$WORK/$1.log" |
    awk -v f="$2" '{ print (f == "in") ? $1 : $2 }'
}
OUT_A=$(counter A out) IN_A=$(counter A in) OUT_B=$(counter B out) IN_B=$(counter B in)
DROPPED_B=$(nft_count "$B" dropped) ACCEPTED_B=$(nft_count "$B" accepted)
DROPPED_A=$(nft_count "$A" dropped) ACCEPTED_A=$(nft_count "$A" accepted)
echo "# A->B: A's router sent $OUT_A, B's nft dropped $DROPPED_B and passed $ACCEPTED_B, B's router got $IN_B"
echo "# B->A: B's router sent $OUT_B, A's nft dropped $DROPPED_A and passed $ACCEPTED_A, A's router got $IN_A"
grep -h "counters:" "$WORK/A.log" "$WORK/B.log" | sed 's/^/# /'
check "loss was injected" [ $(( DROPPED_A + DROPPED_B )) -gt 0 ]
check "A->B: every datagram A sent reached B's nft" [ "$OUT_A" -eq $(( DROPPED_B + ACCEPTED_B )) ]
check "A->B: every datagram nft passed reached B's router" [ "$IN_B" -eq "$ACCEPTED_B" ]
check "B->A: every datagram B sent reached A's nft" [ "$OUT_B" -eq $(( DROPPED_A + ACCEPTED_A )) ]
# A's router stops before its worker: datagrams B sent in that instant are
# counted by nft but never reach it.
check "B->A: what nft passed reached A's router (but the last instant)" \
  [ "$IN_A" -le "$ACCEPTED_A" -a $(( ACCEPTED_A - IN_A )) -le 3 ]
for n in A B; do
  check "$n: no frame refused by the link engine" bash -c \
    "grep 'counters:' $WORK/$n.log |
       sed 's/.*; drops//; s/rekey_refused=[0-9]*//; s/unmatched_msg2=[0-9]*//;
            s/handshake_pending=[0-9]*//' |
       grep -qE '^ *(none)? *\$'"
done
[ "$FAILED" -eq 0 ] || { echo "--- A.log"; tail -30 "$WORK/A.log"; echo "--- B.log"; tail -30 "$WORK/B.log"; }
finish
