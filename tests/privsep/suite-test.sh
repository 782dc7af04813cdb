#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The privilege-separated process suite, for real: starts `fips` in a fresh
# network namespace and checks each child's uid, capabilities, no_new_privs
# and seccomp from /proc, the TUN device, restart of a killed transport
# worker, suite shutdown when the router dies, SIGTERM cleanup, SIGHUP
# reload (node.* keys it does not apply named one by one), a second node
# whose control socket path is taken, a Tailscale-like policy rule, and
# logging to /dev/full.
#
#   namespace fipst-$$ (lo only)
#   +-------------------------------------------+
#   | fips (root)                               |
#   |  +- fips-tun-helper  NET_ADMIN+NET_RAW    |
#   |  +- fips-router      user fips, seccomp   |   fips0: fd00::/8
#   |  +- fips-udp         user fips, seccomp   |   udp 127.0.0.1:2121
#   +-------------------------------------------+
set -u
BUILD=${1:?usage: suite-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

NS=fipst-$$
netns_add "$NS"
WORK=$(mktemp -d)
[ -n "${KEEP_LOG:-}" ] && echo "log: $WORK/log"
CLEANUPS+=("rm -rf $WORK")
MTU=1300
cat > "$WORK/fips.yaml" <<YAML
node:
  identity:
    persistent: true
  log_level: info
tun:
  enabled: true
  name: fips0
  mtu: $MTU
transports:
  udp:
    bind_addr: "127.0.0.1:2121"
YAML

SUP=""
start_suite() {
  ip netns exec "$NS" "$BUILD/fips" -c "$WORK/fips.yaml" 2>>"$WORK/log" &
  SUP=$!
  wait_until 5 child_pid "$SUP" fips-udp >/dev/null && wait_until 5 tun_up
}
tun_up() { ip -n "$NS" -6 route show dev fips0 2>/dev/null | grep -q '^fd00::/8'; }
no_tun() { ! ip -n "$NS" link show fips0 >/dev/null 2>&1; }
gone() { ! kill -0 "$1" 2>/dev/null; }
no_children() { [ -z "$(pgrep -P "$SUP")" ]; }
seccomp_on() { [ "$(status_field "$1" Seccomp)" = 2 ]; }

# --- a Tailscale-like rule: everything to table 52, which has a default route
ip -n "$NS" -6 rule add pref 5270 table 52
ip -n "$NS" -6 route add default dev lo table 52
check "the Tailscale-like rule captures other traffic" bash -c "ip -n $NS -6 route get 2001:db8::1 | grep -q 'dev lo'"

check "suite starts" start_suite
check "router and udp worker report ready" wait_until 5 bash -c "grep -q 'router ready' $WORK/log && grep -q 'udp ready' $WORK/log"
ROUTER=$(child_pid "$SUP" fips-router)
UDP=$(child_pid "$SUP" fips-udp)
TUNH=$(child_pid "$SUP" fips-tun-helper)
for role in ROUTER UDP; do
  pid=${!role}
  check "$role uid is not 0" [ "$(status_field "$pid" Uid)" != 0 ]
  check "$role CapEff is 0" [ "$(status_field "$pid" CapEff)" = 0000000000000000 ]
  check "$role CapPrm is 0" [ "$(status_field "$pid" CapPrm)" = 0000000000000000 ]
  check "$role CapBnd is 0" [ "$(status_field "$pid" CapBnd)" = 0000000000000000 ]
  check "$role NoNewPrivs is 1" [ "$(status_field "$pid" NoNewPrivs)" = 1 ]
  check "$role Seccomp is 2" seccomp_on "$pid"
done
# The control thread keeps SCHED_FIFO 1 (taken before the drop), no other
# router thread does; where this machine refuses real-time to root too, the
# router says why and runs it at normal priority.
# thread_policies PID: "comm policy" per thread (policy is /proc stat field 41).
thread_policies() {
  local t
  for t in /proc/"$1"/task/*; do
    echo "$(cat "$t/comm") $(sed 's/.*) //' "$t/stat" | awk '{ print $39 }')"
  done
}
POLICIES=$(thread_policies "$ROUTER")
control_fifo() { [ "$(grep -c '^fips-control 1$' <<< "$POLICIES")" = 1 ]; }
others_normal() { ! grep -v '^fips-control ' <<< "$POLICIES" | grep -qv ' 0$'; }
if chrt -f 1 true 2>/dev/null; then
  check "router control thread is SCHED_FIFO" control_fifo
  check "router logs the control thread's priority" grep -q "control thread: SCHED_FIFO priority 1" "$WORK/log"
else
  check "router says why the control thread is not real-time" grep -q "control thread: normal priority" "$WORK/log"
fi
check "every other router thread is SCHED_OTHER" others_normal
# CAP_NET_ADMIN is bit 12, CAP_NET_RAW bit 13.
check "tun-helper CapEff is exactly NET_ADMIN+NET_RAW" [ "$(status_field "$TUNH" CapEff)" = 0000000000003000 ]
check "tun-helper uid is not 0" [ "$(status_field "$TUNH" Uid)" != 0 ]
check "tun-helper NoNewPrivs is 1" [ "$(status_field "$TUNH" NoNewPrivs)" = 1 ]
check "fips0 has MTU $MTU" bash -c "ip -n $NS link show fips0 | grep -q 'mtu $MTU'"
check "fips0 has an fd00::/8 address" bash -c "ip -n $NS -6 addr show dev fips0 | grep -q 'inet6 fd'"
check "fd00::/8 routes to fips0" tun_up
ADDR=$(ip -n "$NS" -6 addr show dev fips0 | awk '/inet6 fd/ { sub("/.*", "", $2); print $2 }')
check "a Tailscale-like rule does not swallow fd00::/8" bash -c "ip -n $NS -6 route get ${ADDR%:*}:1 | grep -q 'dev fips0'"
check "router holds the TUN fd" bash -c "ls -l /proc/$ROUTER/fd | grep -q tun"
check "key file written 0600" [ "$(stat -c %a "$WORK/fips.key")" = 600 ]

# --- SIGHUP: a valid change is applied, a broken file is refused
sed -i 's/log_level: info/log_level: debug/' "$WORK/fips.yaml"
kill -HUP "$SUP"
check "SIGHUP re-reads the config" wait_until 3 grep -q "config re-read, log level debug" "$WORK/log"
# Other node.* keys are not applied live: each one is named with the file.
sed -i 's/^  log_level: debug$/  log_level: debug\n  heartbeat_interval_secs: 7\n  control:\n    json_compat: true/' \
  "$WORK/fips.yaml"
kill -HUP "$SUP"
for key in node.heartbeat_interval_secs node.control.json_compat; do
  check "SIGHUP names $key as needing a restart" wait_until 3 grep -q \
    "SIGHUP: $WORK/fips.yaml: $key changed: not applied, takes effect after a restart" "$WORK/log"
done
check "SIGHUP names nothing else" bash -c "[ \$(grep -c 'changed: not applied' $WORK/log) -eq 2 ]"
cp "$WORK/fips.yaml" "$WORK/good.yaml"
echo "tun: [" >> "$WORK/fips.yaml"
kill -HUP "$SUP"
check "SIGHUP with a broken file keeps the running config" wait_until 3 grep -q "keeping the running config" "$WORK/log"
cp "$WORK/good.yaml" "$WORK/fips.yaml"
check "suite still up after the reloads" kill -0 "$ROUTER"

# --- a second node whose control socket path is taken runs without one and
# says why (not "node.control.enabled: false")
socat UNIX-LISTEN:"$WORK/busy.sock",fork /dev/null &
LISTENER=$!
CLEANUPS+=("kill $LISTENER 2>/dev/null")
wait_until 3 test -S "$WORK/busy.sock"
# Its own directory: its key files (next to its config) are not the suite's.
mkdir "$WORK/second"
cat > "$WORK/second/fips.yaml" <<YAML
node:
  control:
    socket_path: "$WORK/busy.sock"
tun:
  enabled: false
transports:
  udp:
    bind_addr: "127.0.0.1:2122"
YAML
ip netns exec "$NS" "$BUILD/fips" -c "$WORK/second/fips.yaml" 2>"$WORK/second.log" &
SECOND=$!
check "a busy control socket: the router says it runs without one, and why" wait_until 5 grep -q \
  "running without a control socket (control socket already in use: $WORK/busy.sock)" \
  "$WORK/second.log"
check "a busy control socket: not called disabled" bash -c "! grep -q 'node.control.enabled: false' $WORK/second.log"
kill -TERM "$SECOND"
wait "$SECOND"
kill "$LISTENER"

# --- a transport worker that dies is restarted
kill -9 "$UDP"
new_udp() { local p; p=$(child_pid "$SUP" fips-udp) && [ "$p" != "$UDP" ]; }
check "killed udp worker replaced within 2 s" wait_until 2 new_udp
NEWUDP=$(child_pid "$SUP" fips-udp)
check "new udp worker sandboxed" wait_until 2 seccomp_on "$NEWUDP"
check "router survives a worker restart" kill -0 "$ROUTER"

# --- SIGTERM stops everything and removes fips0
CHILDREN=$(pgrep -P "$SUP")
kill -TERM "$SUP"
check "SIGTERM: supervisor exits within 5 s" wait_until 5 gone "$SUP"
wait "$SUP"; RC=$?
check "SIGTERM: exit status 0" [ "$RC" -eq 0 ]
for pid in $CHILDREN; do check "SIGTERM: child $pid gone" gone "$pid"; done
check "SIGTERM: fips0 removed" no_tun
check "SIGTERM: fd00::/8 rule removed" bash -c "! ip -n $NS -6 rule | grep -q 'fd00::/8'"

# --- the router dies: the whole suite stops, non-zero
check "suite restarts" start_suite
check "persistent identity: same npub after a restart" bash -c \
  "[ \$(grep -o 'identity npub1[a-z0-9]*' $WORK/log | sort -u | wc -l) -eq 1 ]"
ROUTER=$(child_pid "$SUP" fips-router)
CHILDREN=$(pgrep -P "$SUP")
kill -9 "$ROUTER"
check "router killed: supervisor exits within 5 s" wait_until 5 gone "$SUP"
wait "$SUP"; RC=$?
check "router killed: exit status non-zero" [ "$RC" -ne 0 ]
for pid in $CHILDREN; do check "router killed: child $pid gone" gone "$pid"; done
check "router killed: fips0 removed" no_tun

# --- a stopped (hung) router: SIGTERM still stops the UDP worker gracefully
# (after the router's grace of 2 s) instead of SIGKILLing it at 4.5 s
check "suite restarts (hung router)" start_suite
ROUTER=$(child_pid "$SUP" fips-router)
UDP=$(child_pid "$SUP" fips-udp)
kill -STOP "$ROUTER"
: > "$WORK/log"
START=$(date +%s%N)
kill -TERM "$SUP"
check "hung router: supervisor exits within 4 s" wait_until 4 gone "$SUP"
echo "# hung router: suite stopped in $(( ($(date +%s%N) - START) / 1000000 )) ms"
wait "$SUP"
check "hung router: the others are stopped after the grace" grep -q "router (pid $ROUTER) has not stopped" "$WORK/log"
check "hung router: the udp worker stopped by itself (no SIGKILL)" bash -c \
  "grep -q 'udp stopped (exit status 0)' $WORK/log && ! grep -q 'pid $UDP) did not stop' $WORK/log"
check "hung router: the router is killed" bash -c "grep -q 'pid $ROUTER) did not stop: SIGKILL' $WORK/log && ! kill -0 $ROUTER 2>/dev/null"
check "hung router: fips0 removed" no_tun

# --- stderr on /dev/full: the daemon keeps working
ip netns exec "$NS" "$BUILD/fips" -c "$WORK/good.yaml" 2>/dev/full &
SUP=$!
check "stderr on /dev/full: suite comes up" bash -c "
  for i in \$(seq 100); do ip -n $NS -6 route show dev fips0 2>/dev/null | grep -q fd00 && exit 0; sleep 0.05; done; exit 1"
check "stderr on /dev/full: still running after 1 s" bash -c "sleep 1; kill -0 $SUP"
kill -TERM "$SUP"
check "stderr on /dev/full: clean stop" wait_until 5 gone "$SUP"
wait "$SUP"; RC=$?
check "stderr on /dev/full: exit status 0" [ "$RC" -eq 0 ]
check "stderr on /dev/full: fips0 removed" no_tun

# --- fips0 already taken by another interface: a clear error, and it survives
ip -n "$NS" link add fips0 type veth peer name fips0peer
ip netns exec "$NS" "$BUILD/fips" -c "$WORK/good.yaml" 2>"$WORK/taken.log" &
SUP=$!
check "name taken: supervisor exits within 5 s" wait_until 5 gone "$SUP"
wait "$SUP"; RC=$?
check "name taken: exit status non-zero" [ "$RC" -ne 0 ]
check "name taken: the error names the cause" grep -q "fips0 already exists (kind veth)" "$WORK/taken.log"
check "name taken: the other interface is left alone" bash -c "ip -n $NS link show fips0peer >/dev/null"
ip -n "$NS" link del fips0

# --- a planted symlink as fips.key is never followed
KEYS=$(mktemp -d)
CLEANUPS+=("rm -rf $KEYS")
cp "$WORK/good.yaml" "$KEYS/fips.yaml"
echo "untouched" > "$KEYS/target"
ln -s "$KEYS/target" "$KEYS/fips.key"
ip netns exec "$NS" "$BUILD/fips" -c "$KEYS/fips.yaml" 2>"$WORK/symlink.log"; RC=$?
check "symlinked fips.key: refused, exit 1" [ "$RC" -eq 1 ]
check "symlinked fips.key: says so" grep -qi "symlink" "$WORK/symlink.log"
check "symlinked fips.key: target untouched" [ "$(cat "$KEYS/target")" = untouched ]
check "symlinked fips.key: nothing started" no_tun

# --- persistent mode with a key that cannot be written: fatal, no ephemeral fallback
rm -f "$KEYS/fips.key"
unshare -m bash -c "mount --bind -o ro '$KEYS' '$KEYS' &&
  ip netns exec '$NS' '$BUILD/fips' -c '$KEYS/fips.yaml'" 2>"$WORK/ro.log"; RC=$?
check "unwritable key dir (persistent): exit 1" [ "$RC" -eq 1 ]
check "unwritable key dir (persistent): names the key file" grep -q "fips.key" "$WORK/ro.log"
check "unwritable key dir (persistent): nothing started" no_tun

# --- an existing fips.key with mode 0644 is fixed to 0600, and said so
chmod 0644 "$WORK/fips.key"
ip netns exec "$NS" "$BUILD/fips" -c "$WORK/good.yaml" 2>"$WORK/mode.log" &
SUP=$!
check "0644 fips.key: suite comes up" wait_until 5 tun_up
check "0644 fips.key: fixed to 0600" [ "$(stat -c %a "$WORK/fips.key")" = 600 ]
check "0644 fips.key: warned" grep -q "0600" "$WORK/mode.log"
kill -TERM "$SUP"
wait "$SUP"

finish
