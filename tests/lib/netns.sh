# SPDX-License-Identifier: MIT
# Helpers for tests that run real fips processes in network namespaces they
# create and remove themselves. Source it; needs root, iproute2, procps.
# Every namespace made with netns_add is deleted at exit.

set -u
PASSED=0
FAILED=0
NAMESPACES=()
CLEANUPS=()

# check "description" command...: runs the command, counts and prints the result.
check() {
  local what=$1
  shift
  if "$@"; then
    PASSED=$((PASSED + 1))
    echo "ok   - $what"
  else
    FAILED=$((FAILED + 1))
    echo "FAIL - $what"
  fi
}

# netns_add NAME: creates a namespace with loopback up.
netns_add() {
  ip netns add "$1"
  NAMESPACES+=("$1")
  ip -n "$1" link set lo up
}

at_exit() {
  local c
  for c in "${CLEANUPS[@]}"; do eval "$c" || true; done
  local ns pid
  for ns in "${NAMESPACES[@]}"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
  done
}
trap at_exit EXIT

# wait_until SECONDS command...: polls every 0.05 s until the command succeeds.
wait_until() {
  local deadline=$(( $(date +%s%N) + $1 * 1000000000 ))
  shift
  while ! "$@"; do
    [ "$(date +%s%N)" -gt "$deadline" ] && return 1
    sleep 0.05
  done
}

# child_pid PARENT COMM: the pid of PARENT's child whose comm is COMM.
child_pid() {
  local pid
  for pid in $(pgrep -P "$1" 2>/dev/null); do
    if [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$2" ]; then echo "$pid"; return 0; fi
  done
  return 1
}

# status_field PID FIELD: a field of /proc/PID/status, e.g. CapEff.
status_field() {
  awk -v f="$2:" '$1 == f { print $2 }' /proc/"$1"/status
}

# finish: prints the summary line and exits non-zero on any failure.
finish() {
  echo "# $PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
}
