#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fipsctl against running nodes over the control socket (issue #7):
#
#   ns cA-$$                      ns cB-$$
#   fips (A) 10.98.0.1:2121 ---- veth ---- 10.98.0.2:2121 fips (B)
#
# Neither node lists the other as a peer. Checks: `show status --json`
# names A's npub and peer count; `connect` brings up a link to B (not in
# the config), `show peers` lists it with its transport address, `show
# links|transports` and `stats metrics --format prometheus` show it, `show
# tree --json` at both nodes has one root with the other node at depth 1
# under it, `show bloom|cache` parse,
# `disconnect` (by a name from the hosts file) drops it; connect and
# disconnect by a peer's config alias; `disconnect` of an auto-connect peer
# is not redialed until the peer has dialed back and gone away; layers not built
# say so and exit 1; -s with a wrong path and a stopped daemon give one-line
# errors and status 1; a user outside group fips is refused by the socket's
# permissions (and let in with the group); an oversized or malformed
# request loses only its own connection; 1,000 silent connections do not
# block a real query.
set -u
BUILD=${1:?usage: control-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

A=cA-$$ B=cB-$$
node_ns A "$A"
node_ns B "$B"
veth_link A B 10.98.0.1/24 10.98.0.2/24 vcA-$$ vcB-$$

netns_workdir
node_keygen A B
NPUB_A=${NPUB[A]}
NPUB_B=${NPUB[B]}
node_config A --bind 10.98.0.1:2121
node_config B --bind 10.98.0.2:2121
SOCK_A=$WORK/A/control.sock

ctl() { "$BUILD/ctl/fipsctl" -s "$SOCK_A" "$@"; }
one_line_error() {  # one_line_error STDERR_FILE: exactly one line, "fipsctl: ..."
  [ "$(wc -l < "$1")" -eq 1 ] && grep -q '^fipsctl: ' "$1"
}

start_suite A; start_suite B
wait_until 10 suite_ready A && wait_until 10 suite_ready B && wait_until 5 test -S "$SOCK_A"

# --- the socket: mode 0770, group fips
check "socket is mode 770" [ "$(stat -c %a "$SOCK_A")" = 770 ]
if getent group fips >/dev/null; then
  check "socket group is fips" [ "$(stat -c %G "$SOCK_A")" = fips ]
fi

# --- show status
ctl show status --json > "$WORK/status.json"
check "show status --json exits 0" [ $? -eq 0 ]
check "show status --json names A's npub" \
  [ "$(json_get 'd["npub"]' < "$WORK/status.json")" = "$NPUB_A" ]
check "show status --json: peer_count 0" [ "$(json_get 'd["peer_count"]' < "$WORK/status.json")" = 0 ]
check "show status (table) shows the npub" bash -c "$BUILD/ctl/fipsctl -s $SOCK_A show status | grep -q '$NPUB_A'"

# --- connect to B, which is in no config
check "connect exits 0" ctl connect "$NPUB_B" 10.98.0.2:2121 udp
peers_has_b() {
  ctl show peers --json | json_get \
    '[p["transport_addr"] for p in d["peers"] if p["npub"] == "'"$NPUB_B"'"] == ["10.98.0.2:2121"]' |
    grep -q True
}
check "connect: link to B comes up, show peers --json has its address" wait_until 5 peers_has_b
check "show peers (table) lists B with its transport address" \
  bash -c "$BUILD/ctl/fipsctl -s $SOCK_A show peers | grep '$NPUB_B' | grep -q '10.98.0.2:2121'"
check "show status --json: peer_count 1" \
  [ "$(ctl show status --json | json_get 'd["peer_count"]')" = 1 ]
check "show links lists the link" bash -c "$BUILD/ctl/fipsctl -s $SOCK_A show links | grep -q '10.98.0.2:2121'"
check "show transports --json: udp up on 10.98.0.1:2121" \
  [ "$(ctl show transports --json | json_get 'd["transports"][0]["state"] + " " + d["transports"][0]["local_addr"]')" = "up 10.98.0.1:2121" ]
check "stats metrics --format prometheus counts the link" \
  bash -c "$BUILD/ctl/fipsctl -s $SOCK_A stats metrics --format prometheus | grep -qx 'fips_link_links_up_total 1'"
check "connect to an fd00::/8 address is refused" bash -c "! $BUILD/ctl/fipsctl -s $SOCK_A connect $NPUB_B '[fd00::1]:2121' udp 2>/dev/null"
check "connect over a transport not configured is refused" bash -c "! $BUILD/ctl/fipsctl -s $SOCK_A connect $NPUB_B 10.98.0.2:2121 tcp 2>/dev/null"

# --- show tree|bloom|cache from the per-tick snapshot, at both nodes
SOCK_B=$WORK/B/control.sock
tree_ok() {  # one root for both; the root at depth 0, the other at depth 1 under it
  "$BUILD/ctl/fipsctl" -s "$SOCK_A" show tree --json > "$WORK/treeA.json" &&
    "$BUILD/ctl/fipsctl" -s "$SOCK_B" show tree --json > "$WORK/treeB.json" &&
    python3 - "$WORK/treeA.json" "$WORK/treeB.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
root = min(a["my_node_addr"], b["my_node_addr"])
ok = a["root"] == b["root"] == root
for me, other in ((a, b), (b, a)):
    if me["my_node_addr"] == root:
        ok = ok and me["is_root"] and me["depth"] == 0 and me["my_coords"] == [root]
    else:
        ok = ok and not me["is_root"] and me["depth"] == 1 and me["parent"] == root
        ok = ok and me["my_coords"] == [me["my_node_addr"], root]
    ok = ok and [p["node_addr"] for p in me["peers"]] == [other["my_node_addr"]]
sys.exit(0 if ok else 1)
PY
}
check "show tree --json at A and B: one root, depth and parent right" wait_until 10 tree_ok
check "stats metrics --json: tree.accepted and bloom.sent counted" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A stats metrics --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d[\"tree\"][\"accepted\"] >= 1 and d[\"bloom\"][\"sent\"] >= 1 and \"req_received\" in d[\"discovery\"] else 1)'"
check "show tree (table) names the root" bash -c "$BUILD/ctl/fipsctl -s $SOCK_A show tree | grep -q '^root'"
check "show bloom --json parses and lists B's filter slot" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A show bloom --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if len(d[\"peer_filters\"]) == 1 and \"stats\" in d else 1)'"
check "show cache --json parses" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A show cache --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d[\"max_entries\"] > 0 and isinstance(d[\"entries\"], list) else 1)'"
check "show bloom and show cache (tables) exit 0" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A show bloom >/dev/null && $BUILD/ctl/fipsctl -s $SOCK_A show cache >/dev/null"

# --- stats history: rings filled once per tick, answered by the control thread
check "stats list --json: 17 metrics, 1 h of 1 s samples" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A stats list --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if len(d[\"metrics\"]) == 17 and d[\"fast_ring_seconds\"] == 3600 else 1)'"
samples() {  # samples METRIC: non-null samples of A's last 60 s of METRIC
  "$BUILD/ctl/fipsctl" -s "$SOCK_A" stats history "$1" --window 60s --json |
    python3 -c 'import json,sys; print(sum(v is not None for v in json.load(sys.stdin)["values"]))'
}
n1=$(samples peer_count); sleep 3; n2=$(samples peer_count)
echo "# stats history peer_count: $n1 then $n2 samples"
check "stats history peer_count: samples grow over 3 s" [ "${n2:-0}" -ge $(( ${n1:-0} + 2 )) ]
check "stats history peer_count: the newest sample is 1 peer" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A stats history peer_count --window 5s --json | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)[\"values\"][-1] == 1 else 1)'"
"$BUILD/ctl/fipsctl" -s "$SOCK_A" stats history peer_count --window 30s --plot > "$WORK/plot"
check "stats history --plot: header and a sparkline row" bash -c \
  "head -1 $WORK/plot | grep -q '^peer_count (peers) — 30 samples @ 1s = 30s window' && sed -n 3p $WORK/plot | grep -qE '(▁|▂|▃|▄|▅|▆|▇|█)'"
echo "node-b $NPUB_B" > "$WORK/hosts"
check "stats peers --json: B tracked and active" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A stats peers --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d[\"count\"] == 1 and d[\"peers\"][0][\"npub\"] == \"$NPUB_B\" and d[\"peers\"][0][\"is_active\"] else 1)'"
check "stats history srtt_ms --peer node-b --granularity 1m: a series" bash -c \
  "FIPS_HOSTS_FILE=$WORK/hosts $BUILD/ctl/fipsctl -s $SOCK_A stats history srtt_ms --peer node-b --window 1h --granularity 1m --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d[\"granularity_seconds\"] == 60 and len(d[\"values\"]) == 60 else 1)'"
"$BUILD/ctl/fipsctl" -s "$SOCK_A" stats history bogus 2>"$WORK/err"; rc=$?
check "stats history of an unknown metric: status 1, one line" bash -c \
  "[ $rc -eq 1 ] && grep -q 'unknown metric: bogus' $WORK/err && [ \$(wc -l < $WORK/err) -eq 1 ]"

# --- link-layer MMP (spec 02 §9): RTT from the reports, per-link counters
mmp_ok() {
  "$BUILD/ctl/fipsctl" -s "$SOCK_A" show mmp --json > "$WORK/mmp.json" &&
    "$BUILD/ctl/fipsctl" -s "$SOCK_A" show peers --json > "$WORK/mmp-peers.json" &&
    "$BUILD/ctl/fipsctl" -s "$SOCK_A" show links --json > "$WORK/mmp-links.json" &&
    python3 - "$WORK/mmp.json" "$WORK/mmp-peers.json" "$WORK/mmp-links.json" 2>"$WORK/mmp.err" <<'PY'
import json, sys
mmp, peers, links = (json.load(open(f)) for f in sys.argv[1:4])
assert mmp["sessions"] == [] and len(mmp["peers"]) == 1, mmp
link = mmp["peers"][0]["link_layer"]
assert mmp["peers"][0]["mode"] == "full"
assert 0 < link["srtt_ms"] < 100, link           # a veth between namespaces
assert link["loss_rate"] == 0 and 1 <= link["etx"] <= 2, link
s = peers["peers"][0]["stats"]
assert min(s["packets_sent"], s["packets_recv"], s["bytes_sent"], s["bytes_recv"]) > 0, s
assert s["bytes_sent"] > 32 * s["packets_sent"], s  # whole FMP packets: 32-byte overhead each
assert peers["peers"][0]["mmp"]["srtt_ms"] == link["srtt_ms"]
l = links["links"][0]["stats"]
assert l["packets_recv"] > 0 and l["bytes_sent"] > 0, l
PY
}
check "show mmp --json at A: an RTT (0-100 ms) and non-zero per-link counters" wait_until 30 mmp_ok
check "show mmp (table) lists B with an SRTT" bash -c \
  "$BUILD/ctl/fipsctl -s $SOCK_A show mmp | grep -E -q '^\S+ +full +[0-9.]+ms'"

# --- disconnect by name (hosts file)
echo "node-b $NPUB_B" > "$WORK/hosts"
check "disconnect node-b exits 0" env FIPS_HOSTS_FILE="$WORK/hosts" "$BUILD/ctl/fipsctl" -s "$SOCK_A" disconnect node-b
check "disconnect: the peer is gone" wait_until 3 bash -c \
  "[ \"\$($BUILD/ctl/fipsctl -s $SOCK_A show status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"peer_count\"])')\" = 0 ]"
check "disconnect: not redialed (ephemeral)" bash -c "sleep 2; ! $BUILD/ctl/fipsctl -s $SOCK_A show peers | grep -q '$NPUB_B'"
ctl disconnect "$NPUB_B" 2>"$WORK/err"; rc=$?
check "disconnect of a peer not connected: status 1, one line" bash -c "[ $rc -eq 1 ] && grep -q 'peer not found' $WORK/err"

# --- layers not built: a clear message and status 1
ctl show native-flows >/dev/null 2>"$WORK/err"; rc=$?
check "show native-flows: not available yet, status 1" bash -c "[ $rc -eq 1 ] && grep -q 'not available yet in this build' $WORK/err"

# --- a wrong -s path: one line, status 1
"$BUILD/ctl/fipsctl" -s "$WORK/nowhere.sock" show status 2>"$WORK/err"; rc=$?
check "-s wrong path: status 1" [ $rc -eq 1 ]
check "-s wrong path: one line" one_line_error "$WORK/err"

# --- a user outside group fips is refused by the socket's permissions
if [ -x "$BUILD/ctl/fipsctl" ] && setpriv --reuid=nobody --regid=nogroup --clear-groups \
    test -x "$BUILD/ctl/fipsctl"; then
  setpriv --reuid=nobody --regid=nogroup --clear-groups "$BUILD/ctl/fipsctl" -s "$SOCK_A" \
    show status 2>"$WORK/err" >/dev/null; rc=$?
  check "user outside group fips: status 1, Permission denied" \
    bash -c "[ $rc -eq 1 ] && grep -q 'Permission denied' $WORK/err"
  check "user outside group fips: one line" one_line_error "$WORK/err"
  if getent group fips >/dev/null; then
    check "the same user in group fips is let in" setpriv --reuid=nobody --regid=nogroup \
      --groups="$(getent group fips | cut -d: -f3)" "$BUILD/ctl/fipsctl" -s "$SOCK_A" show status
  fi
else
  echo "# skipped the group checks: user nobody cannot run $BUILD/ctl/fipsctl"
fi

# --- oversized and malformed requests lose only their own connection
python3 - "$SOCK_A" <<'PY' > "$WORK/abuse.out"
import os, socket, struct, sys
path = sys.argv[1]
def closed_by_server(payload):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    try:
        s.sendall(payload)
        while s.recv(4096):  # capnp may say why (an Abort message) before it hangs up
            pass
        return True
    except (BrokenPipeError, ConnectionResetError):
        return True
    except socket.timeout:
        return False
    finally:
        s.close()
# A segment table announcing one 2^28-word segment (2 GiB): over the limit.
huge = struct.pack("<II", 0, 1 << 28) + os.urandom(4096)
# A well-framed message whose root pointer points far outside its segment.
bad_pointer = struct.pack("<II", 0, 2) + struct.pack("<II", 4000, 1) + b"\0" * 8
# 1 MiB announced as 1 segment of 131072 words.
big = struct.pack("<II", 0, 131072) + b"\0" * (131072 * 8)
# More segments than capnp accepts in a message.
segments = struct.pack("<I", 100000) + os.urandom(4096)
print([closed_by_server(p) for p in (huge, bad_pointer, big, segments)])
PY
check "oversized and malformed requests: connection closed" grep -qx '\[True, True, True, True\]' "$WORK/abuse.out"
check "after them the daemon still answers" ctl show status --json >/dev/null
check "after them the router is the same process" bash -c "[ \$(pgrep -P ${SUITE[A]} -x fips-router | wc -l) -eq 1 ] && ! grep -q 'exited' $WORK/A.log"

# --- 1,000 connections that never send a byte do not block a real query
python3 - "$SOCK_A" "$WORK/idle.ready" <<'PY' &
import socket, sys, time
socks = []
for i in range(1000):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    socks.append(s)
open(sys.argv[2], "w").close()
time.sleep(4)
PY
IDLE=$!
wait_until 20 test -e "$WORK/idle.ready"
START=$(date +%s%N)
ctl show status --json > "$WORK/busy.json"; rc=$?
echo "# query with 1,000 silent connections open: $(( ($(date +%s%N) - START) / 1000000 )) ms"
check "1,000 silent connections: a real query is answered" \
  bash -c "[ $rc -eq 0 ] && grep -q '$NPUB_A' $WORK/busy.json"
wait "$IDLE"

# --- a stopped daemon: one line, status 1
stop_suite A
check "stopped daemon: socket removed" [ ! -e "$SOCK_A" ]
ctl show status 2>"$WORK/err"; rc=$?
check "stopped daemon: status 1" [ $rc -eq 1 ]
check "stopped daemon: one line" one_line_error "$WORK/err"

# --- a peer's config alias names it to connect and disconnect (B is listed
# on demand: never dialed by itself)
node_config A --bind 10.98.0.1:2121 --peer B 10.98.0.2:2121 --alias Bee --on-demand
start_suite A
udp_up() { ctl show transports --json 2>/dev/null | grep -q '"up"'; }
wait_until 10 suite_ready A && wait_until 10 udp_up
check "connect by a config alias (any case) exits 0" ctl connect bEE 10.98.0.2:2121 udp
check "connect by alias: link to B comes up" wait_until 5 peers_has_b
check "disconnect by a config alias exits 0" ctl disconnect bee
check "disconnect by alias: the peer is gone" wait_until 3 bash -c \
  "! $BUILD/ctl/fipsctl -s $SOCK_A show peers | grep -q '$NPUB_B'"
ctl disconnect nobody 2>"$WORK/err"; rc=$?
check "an unknown peer name: status 1, one line naming it" \
  bash -c "[ $rc -eq 1 ] && grep -q \"unknown peer 'nobody'\" $WORK/err && [ \$(wc -l < $WORK/err) -eq 1 ]"
stop_suite A

# --- disconnect of an auto-connect peer: A does not redial it; once B has
# dialed A and gone away again, A redials it, as the reference (which
# re-arms the redial of a configured peer at every later link loss)
node_config A --bind 10.98.0.1:2121 --peer B 10.98.0.2:2121
start_suite A
no_b() { ! peers_has_b; }
check "configured B comes up" wait_until 10 peers_has_b
check "disconnect of configured B exits 0" ctl disconnect "$NPUB_B"
check "disconnect of configured B: gone" wait_until 3 no_b
sleep 5  # five retry base intervals
check "disconnect of configured B: not redialed 5 s later" no_b
check "B dials A" "$BUILD/ctl/fipsctl" -s "$WORK/B/control.sock" connect "$NPUB_A" 10.98.0.1:2121 udp
check "B dials A: link up" wait_until 5 peers_has_b
stop_suite B
start_suite B  # B has no config for A: only A's redial brings the link back
check "B went away and came back: A redials it" wait_until 20 peers_has_b
stop_suite A
stop_suite B
finish
