#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Session-layer MMP and fipsctl probe (issues #6, #7), with real nodes:
#
#   eA ---- eB ---- eC     veth pairs 10.97.1.0/24 and 10.97.2.0/24;
#                          A and C are not peers, B is in the middle.
#
# Checks: `fipsctl probe <npub of C>` on A (no session yet) opens a session
# with bloom, discovery, path and session ok and tears it down at its end
# (cleanup; A holds none with C after), and an rtt stage that is
# either ok with an SRTT (exit 0) or, when every echo truncated to 0 ms on
# the veths, failed as sub_millisecond (exit 1, probe_rtt_sound); after pings A→C over fips0, `fipsctl show
# sessions --json` on A and on C shows the session with a non-null
# mmp.srtt_ms (and loss_rate, etx), A names C by its hosts-file name
# (carol), and the table has the SRTT column;
# `fipsctl probe relay-b` (A's alias for B in its config) probes B; a
# later probe of C sees the session the pings opened as pre-existing,
# leaves it intact and judges rtt on new samples only (the same two
# outcomes); with C's router frozen (SIGSTOP) a probe exits non-zero with rtt
# failed (the old SRTT is no answer).
set -u
BUILD=${1:?usage: session-mmp-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v ping >/dev/null || { echo "SKIP: ping not installed"; exit 77; }

NODES=(A B C)
line_nodes e 10.97 "${NODES[@]}" -- --tun --tun-mtu 1400 --mtu 1472 || exit 1
# A names B by an alias (probe takes it).
line_peers "${NODES[0]}"
node_config "${NODES[0]}" "${PEERS[@]}" --alias relay-b --tun --tun-mtu 1400 --mtu 1472 || exit 1
# A's hosts file names C carol: sessions show that name (the reference's
# peer_display_name).
echo "carol ${NPUB[C]}" > "$WORK/hosts"
FIPS_HOSTS_FILE="$WORK/hosts" start_suite A
start_suite B
start_suite C

ctl() { local n=$1; shift; "$BUILD/ctl/fipsctl" -s "$WORK/$n/control.sock" "$@"; }
export BUILD WORK
export -f ctl

tun_up() { grep -q "TUN fips0 ready" "$WORK/$1.log"; }
all_up() { tun_up A && tun_up B && tun_up C && links_up B A C; }
check "three suites up with TUN and both links of B" wait_until 20 all_up

# The probe's lookup needs C in A's peers' bloom filters: probe again only
# while the mesh has not settled (the probe stopped before its session
# stage). The first probe that gets that far is the one checked: it opens
# the session, and its rtt stage needs the first session report exchange,
# which goes out at once (not on a tick), within its 3 s budget.
probe_reached_session() {
  ctl A probe "${NPUB[C]}" --json > "$WORK/probe.json"
  echo $? > "$WORK/probe.rc"
  [ "$(json_get 'd["session"]["verdict"]' < "$WORK/probe.json")" != not_reached ]
}
check "probe C from A reaches its session stage once the mesh has settled" \
  wait_until 40 probe_reached_session
echo "# $(json_get '[(s, d[s]["verdict"], d[s]["reason"]) for s in ("bloom","discovery","path","session","rtt")]' < "$WORK/probe.json")"
check "probe C: bloom, discovery, path and session ok" bash -c \
  "[ \"\$(json_get '\" \".join(d[s][\"verdict\"] for s in (\"bloom\",\"discovery\",\"path\",\"session\"))' < $WORK/probe.json)\" = 'ok ok ok ok' ]"
check "probe C: the probe opened the session (not pre-existing), next hop B" bash -c \
  "[ \"\$(json_get 'd[\"session\"][\"preexisting\"], d[\"session\"][\"established\"], d[\"path\"][\"next_hop\"][\"direct_peer\"]' < $WORK/probe.json)\" = 'False True False' ]"
check "probe C: rtt has an SRTT from session MMP (exit 0), or every echo was under 1 ms (exit 1)" \
  probe_rtt_sound "$WORK/probe.json" "$(cat "$WORK/probe.rc")"
sessions_with_c() {  # how many sessions A holds with C
  ctl A show sessions --json | json_get "len([s for s in d['sessions'] if s['npub'] == '${NPUB[C]}'])"
}
cleanup_is() {  # cleanup_is REPORT TORN_DOWN REASON SESSIONS: the report's cleanup, A's sessions with C
  [ "$(json_get 'd["cleanup"]["session_created_and_torn_down"], d["cleanup"]["left_intact_reason"]' < "$1")" = "$2 $3" ] &&
    [ "$(sessions_with_c)" = "$4" ]
}
check "probe C: the session it opened was torn down at its end (cleanup), A holds none with C" \
  cleanup_is "$WORK/probe.json" True None 0
probe_alias() {  # A's config calls B relay-b: probe takes the alias (exit status aside)
  ctl A probe relay-b --json > "$WORK/probe-alias.json"
  [ "$(json_get 'd["target"]["npub"]' < "$WORK/probe-alias.json")" = "${NPUB[B]}" ]
}
check "probe relay-b (a configured peer alias) probes B" probe_alias

ADDR_C=$(grep -o "address fd[0-9a-f:]*" "$WORK/C.log" | head -1 | cut -d' ' -f2)
ping_c() { in_ns A ping -6 -c 1 -W 1 "$ADDR_C" >/dev/null 2>&1; }
check "ping -6 from A to C's address ($ADDR_C) succeeds" wait_until 20 ping_c
check "ping -6 -c 5 A→C: 5 of 5 replies" \
  bash -c "ip netns exec eA-$$ ping -6 -c 5 -i 0.2 -W 2 $ADDR_C | grep -q ' 5 received'"

srtt_of() {  # srtt_of NODE PEER: the session's mmp.srtt_ms, or None
  ctl "$1" show sessions --json |
    json_get "[s.get('mmp', {}).get('srtt_ms') for s in d['sessions'] if s['npub'] == '${NPUB[$2]}'][0]"
}
has_srtt() { local v; v=$(srtt_of "$1" "$2") && [ -n "$v" ] && [ "$v" != None ]; }
export -f srtt_of has_srtt
check "show sessions --json on A: the session with C has a non-null mmp.srtt_ms" \
  wait_until 10 has_srtt A C
check "show sessions --json on C: the session with A has a non-null mmp.srtt_ms" \
  wait_until 10 has_srtt C A
check "show sessions --json on A: the session with C shows its hosts-file name" bash -c \
  "ctl A show sessions --json | json_get '[s[\"display_name\"] for s in d[\"sessions\"] if s[\"npub\"] == \"${NPUB[C]}\"]' | grep -qx \"\['carol'\]\""
echo "# A's session mmp: $(ctl A show sessions --json | json_get '[s["mmp"] for s in d["sessions"]]')"
check "show sessions --json on A: loss_rate, etx and path_mtu in the mmp block" bash -c \
  "ctl A show sessions --json | json_get 'all(k in d[\"sessions\"][0][\"mmp\"] for k in (\"loss_rate\",\"etx\",\"path_mtu\",\"mode\"))' | grep -qx True"
check "show sessions (table) on A has the SRTT column and a value in ms" bash -c \
  "ctl A show sessions | grep -q SRTT && ctl A show sessions | grep -qE '[0-9]+\.[0-9]ms'"

# The pings opened a session (the probe's was torn down): a later probe
# reports it pre-existing, leaves it intact, and is ok only on a new RTT
# sample.
ctl A probe "${NPUB[C]}" --json > "$WORK/probe-again.json"; echo $? > "$WORK/probe-again.rc"
echo "# probe again: $(json_get '[(s, d[s]["verdict"], d[s]["reason"]) for s in ("session","rtt")]' < "$WORK/probe-again.json")"
check "probe C again: the session pre-existing (skipped)" bash -c \
  "[ \"\$(json_get 'd[\"session\"][\"verdict\"], d[\"session\"][\"preexisting\"]' < $WORK/probe-again.json)\" = 'skipped True' ]"
check "probe C again: rtt ok on a new sample (exit 0), or every new echo under 1 ms (exit 1)" \
  probe_rtt_sound "$WORK/probe-again.json" "$(cat "$WORK/probe-again.rc")"
check "probe C again: cleanup left the session intact as pre-existing; A still holds it" \
  cleanup_is "$WORK/probe-again.json" False preexisting 1
# The frozen probe is about the pings' session. A session with no Data for
# node.session.idle_timeout_secs (90 s) is torn down, and a probe that finds
# none opens one, which a frozen C cannot answer: session handshake_timeout,
# overall failed instead of partial. One ping now makes the session's age
# independent of how long the checks above took on a loaded machine (if it
# had idled out, the ping opens a new one: retried as the first ping above).
session_fresh() { ping_c && [ "$(sessions_with_c)" = 1 ]; }
check "ping A→C just before C is frozen; A holds its session with C" wait_until 20 session_fresh
ROUTER_C=$(child_pid "${SUITE[C]}" fips-router)
kill -STOP "$ROUTER_C"
ctl A probe "${NPUB[C]}" --json > "$WORK/probe-frozen.json"; echo $? > "$WORK/probe-frozen.rc"
kill -CONT "$ROUTER_C"
echo "# probe frozen C: $(json_get '[d["overall"], d["rtt"]["verdict"], d["rtt"]["reason"]]' < "$WORK/probe-frozen.json")"
echo "# probe frozen C stages: $(json_get '[(s, d[s]["verdict"], d[s]["reason"], d[s].get("elapsed_ms")) for s in ("bloom","discovery","path","session","rtt")]' < "$WORK/probe-frozen.json")"
check "probe C with C's router stopped: non-zero exit, rtt failed, overall partial" bash -c \
  "[ \"\$(cat $WORK/probe-frozen.rc) \$(json_get 'd[\"rtt\"][\"verdict\"], d[\"overall\"]' < $WORK/probe-frozen.json)\" = '1 failed partial' ]"

for n in "${NODES[@]}"; do stop_suite "$n"; done
finish
