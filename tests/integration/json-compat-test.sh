#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The reference's JSON-line protocol on the control socket
# (node.control.json_compat, issue #7 point 5), driven by real clients
# (socat, jq) as scripts written for the reference do:
#
#   ns jA-$$                      ns jB-$$
#   fips (A) 10.97.0.1:2121 ---- veth ---- 10.97.0.2:2121 fips (B)
#   json_compat: true                      json_compat off (the default)
#
# Checks: A's socket is mode 0770 group fips; `connect` over JSON brings a
# link to B up (B is in no config) and every query's `data` equals
# `fipsctl --json` for the same query (same tick); `disconnect` over JSON
# drops B; an oversized (> 4096 B), malformed, unknown or silent request
# gets the reference's error line and leaves the router serving (same
# process); Cap'n Proto clients still work beside; B answers no JSON
# (its socket serves Cap'n Proto only).
set -u
BUILD=${1:?usage: json-compat-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
for tool in socat jq; do
  command -v $tool >/dev/null || { echo "SKIP: needs $tool (scripts/install-deps.sh)"; exit 77; }
done

A=jA-$$ B=jB-$$
netns_add "$A"
netns_add "$B"
ip link add vjA-$$ netns "$A" type veth peer name vjB-$$ netns "$B"
ip -n "$A" addr add 10.97.0.1/24 dev vjA-$$
ip -n "$B" addr add 10.97.0.2/24 dev vjB-$$
ip -n "$A" link set vjA-$$ up
ip -n "$B" link set vjB-$$ up

WORK=$(mktemp -d)
CLEANUPS+=("rm -rf $WORK")
[ -n "${KEEP:-}" ] && CLEANUPS=()
for n in A B; do
  mkdir -p "$WORK/$n"
  "$BUILD/ctl/fipsctl" keygen -d "$WORK/$n" >/dev/null 2>&1
done
NPUB_B=$(cat "$WORK/B/fips.pub")
write_config() {  # write_config NODE OWN_IP JSON_COMPAT_LINE
  cat > "$WORK/$1/fips.yaml" <<YAML
node:
  identity:
    persistent: true
  control:
    socket_path: "$WORK/$1/control.sock"
$3
transports:
  udp:
    bind_addr: "$2:2121"
YAML
}
write_config A 10.97.0.1 "    json_compat: true"
write_config B 10.97.0.2 ""
SOCK_A=$WORK/A/control.sock
SOCK_B=$WORK/B/control.sock

declare -A SUP
start() {  # start NODE NS
  ip netns exec "$2" "$BUILD/fips" -c "$WORK/$1/fips.yaml" 2>>"$WORK/$1.log" &
  SUP[$1]=$!
}
stop() {  # stop NODE
  kill -TERM "${SUP[$1]}" 2>/dev/null
  wait "${SUP[$1]}" 2>/dev/null
}
# send SOCKET: stdin as the request, the server's answer on stdout
send() { socat -t 8 - UNIX-CONNECT:"$1"; }
# ask COMMAND [PARAMS_JSON]: A's one-line answer
ask() {
  if [ $# -eq 2 ]; then
    printf '{"command":"%s","params":%s}\n' "$1" "$2" | send "$SOCK_A"
  else
    printf '{"command":"%s"}\n' "$1" | send "$SOCK_A"
  fi
}
router_pid() { child_pid "${SUP[A]}" fips-router; }

start A "$A"; start B "$B"
wait_until 10 bash -c "grep -qs 'udp ready' $WORK/A.log && grep -qs 'udp ready' $WORK/B.log && [ -S $SOCK_A ] && [ -S $SOCK_B ]"
ROUTER=$(router_pid)

check "A's socket is mode 770" [ "$(stat -c %a "$SOCK_A")" = 770 ]
if getent group fips >/dev/null; then
  check "A's socket group is fips" [ "$(stat -c %G "$SOCK_A")" = fips ]
fi
check "A logs that JSON-line clients are answered" grep -q 'JSON-line clients answered' "$WORK/A.log"

# --- connect over JSON to B, which is in no config
ask connect '{"npub":"'"$NPUB_B"'","address":"10.97.0.2:2121","transport":"udp"}' > "$WORK/connect.json"
check "connect: ok, the reference's data" [ "$(jq -c . "$WORK/connect.json")" = \
  '{"status":"ok","data":{"npub":"'"$NPUB_B"'","address":"10.97.0.2:2121","transport":"udp","refreshed":false}}' ]
peer_up() { ask show_peers | jq -e --arg b "$NPUB_B" '[.data.peers[] | select(.npub == $b) | .transport_addr] == ["10.97.0.2:2121"]' >/dev/null; }
check "connect: B comes up in show_peers" wait_until 5 peer_up
tree_settled() { ask show_tree | jq -e '.data.peers[0].coords != null' >/dev/null; }
wait_until 10 tree_settled

# --- every query: JSON that jq parses, data equal to fipsctl --json (same tick)
same_doc() {  # same_doc COMMAND FIPSCTL_ARGS...: up to 20 tries to catch one tick
  local command=$1 i a b
  shift
  for i in $(seq 20); do
    a=$(ask "$command" | jq -c '.data') || continue
    b=$("$BUILD/ctl/fipsctl" -s "$SOCK_A" "$@" --json | jq -c .) || continue
    if [ -n "$a" ] && [ "$a" != null ] && [ "$a" = "$b" ]; then return 0; fi
  done
  echo "# $command: socket $a" >&2
  echo "# $command: fipsctl $b" >&2
  return 1
}
check "show_status == fipsctl show status --json" same_doc show_status show status
check "show_peers == fipsctl show peers --json" same_doc show_peers show peers
check "show_links == fipsctl show links --json" same_doc show_links show links
check "show_transports == fipsctl show transports --json" same_doc show_transports show transports
check "show_tree == fipsctl show tree --json" same_doc show_tree show tree
check "show_bloom == fipsctl show bloom --json" same_doc show_bloom show bloom
check "show_cache == fipsctl show cache --json" same_doc show_cache show cache
check "show_metrics == fipsctl stats metrics --json" same_doc show_metrics stats metrics
check "show_status: peer_count 1" [ "$(ask show_status | jq .data.peer_count)" = 1 ]
crlf_request() {
  printf ' { "command" : "show_status" }\r\n' | send "$SOCK_A" | jq -e '.status == "ok"' >/dev/null
}
check "a request with spaces and CRLF, as nc users type it" crlf_request

# --- refused requests: the reference's error lines, the router keeps serving
expect_error() {  # expect_error MESSAGE_PREFIX < request
  send "$SOCK_A" | jq -e --arg m "$1" \
    '.status == "error" and (.message | startswith($m)) and (has("data") | not)' >/dev/null
}
oversized() {  # a 5,000-byte value in an otherwise good request
  { printf '{"command":"show_status","x":"'; head -c 5000 /dev/zero | tr '\0' a; printf '"}\n'; } |
    expect_error "read error: request too large"
}
endless() {  # 1 MiB of spaces and never a newline
  head -c 1048576 /dev/zero | tr '\0' ' ' | expect_error "read error: request too large"
}
stalled() {  # half a request, then silence past the 5 s read timeout
  { printf '{"command"'; sleep 7; } | expect_error "read timeout"
}
check "oversized request (5,000 B): request too large" oversized
check "1 MiB without a newline: request too large" endless
check "malformed JSON: invalid request" expect_error "invalid request: " <<< '{"command": show_status'
check "no command: invalid request" expect_error "invalid request: missing field" <<< '{"params":{}}'
check "unknown command" expect_error "unknown command: show_everything" <<< '{"command":"show_everything"}'
check "a reference command not built yet says so" \
  expect_error "show_sessions: not available yet" <<< '{"command":"show_sessions"}'
check "connect without params" expect_error "missing params for connect" <<< '{"command":"connect"}'
check "connect without address" \
  expect_error "missing 'address' parameter" <<< '{"command":"connect","params":{"npub":"x"}}'
check "a client that stops mid-line: read timeout" stalled
status_ok() { ask show_status | jq -e '.status == "ok"' >/dev/null; }
check "after them A still answers JSON" status_ok
fipsctl_ok() { "$BUILD/ctl/fipsctl" -s "$1" show status --json >/dev/null; }
check "after them fipsctl (Cap'n Proto) still answers" fipsctl_ok "$SOCK_A"
check "after them the router is the same process" [ "$(router_pid)" = "$ROUTER" ]

# --- disconnect over JSON
ask disconnect '{"npub":"'"$NPUB_B"'"}' > "$WORK/disconnect.json"
check "disconnect: ok, disconnected true" [ "$(jq -c . "$WORK/disconnect.json")" = \
  '{"status":"ok","data":{"npub":"'"$NPUB_B"'","disconnected":true}}' ]
peer_gone() { [ "$(ask show_status | jq .data.peer_count)" = 0 ]; }
check "disconnect: B is gone" wait_until 3 peer_gone
check "disconnect again: an error line" expect_error "" <<< '{"command":"disconnect","params":{"npub":"'"$NPUB_B"'"}}'

# --- B (json_compat off): no JSON answer; its Cap'n Proto clients unaffected
no_answer() {  # Cap'n Proto refuses the bytes (at most a binary Abort) and hangs up
  ! printf '{"command":"show_status"}\n' | send "$SOCK_B" 2>/dev/null | grep -aq '"status"'
}
check "json_compat off: a JSON request gets no JSON answer" no_answer
check "json_compat off: fipsctl still answers" fipsctl_ok "$SOCK_B"

stop A
stop B
finish
