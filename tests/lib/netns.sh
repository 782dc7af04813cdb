# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Helpers for tests that run real fips processes in network namespaces they
# create and remove themselves. Source it; needs root, iproute2, procps.
# Every namespace made with netns_add is deleted at exit, and every suite
# started with start_suite is stopped first.

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

# json_get EXPR < document: prints the Python expression EXPR over the JSON
# document `d` read from stdin.
json_get() {
  python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"
}
export -f json_get

# probe_rtt_sound REPORT RC: the rtt stage of the probe report in file REPORT
# (fipsctl probe --json, or the report of probe_poll) and the probe's exit
# status RC are one of the two outcomes a veth between namespaces allows.
# MMP echoes carry whole milliseconds (spec 02 §9), so a sub-millisecond
# round trip truncates to 0 ms and is not a sample. Either an SRTT came (rtt
# ok, overall ok, exit 0), or every report so far echoed under 1 ms (rtt
# failed as "sub_millisecond", overall "partial", exit 1: the reference's
# classification; the counters are deltas since the rtt stage started, as the
# reference's). Any other outcome fails. Prints
# what it saw.
probe_rtt_sound() {
  local seen
  seen=$(json_get '" ".join(str(x) for x in (d["overall"], d["rtt"]["verdict"],
    d["rtt"]["reason"], d["rtt"]["srtt_ms"] is not None and d["rtt"]["srtt_ms"] > 0,
    d["rtt"]["samples"] >= 1, d["rtt"]["zero_samples"] >= 1))' < "$1") || return 1
  echo "# probe rtt: overall rtt reason has_srtt samples zero_samples = $seen, exit $2"
  case "$seen $2" in
    "ok ok None True True "*" 0") return 0 ;;
    "partial failed sub_millisecond "*" True 1") return 0 ;;
  esac
  return 1
}
export -f probe_rtt_sound

# --- Nodes: a fips suite per network namespace --------------------------------
# A test names its nodes (A, B, ...), gives each a namespace with node_ns, joins
# them with veth_link (or netns_line), makes keys with node_keygen, writes each
# fips.yaml with node_config and runs the suites with start_suite. Every file of
# node N is under $WORK/N (keys, fips.yaml, control.sock), its log is $WORK/N.log.
# Needs BUILD (the meson build directory). Teardown stops every suite still
# running, then runs CLEANUPS, then removes the namespaces.
declare -A NODE_NS=()  # node -> its namespace
declare -A NPUB=()     # node -> npub (node_keygen)
declare -A SUITE=()    # node -> pid of its running fips supervisor (start_suite)
WORK=""

# netns_workdir: makes $WORK (mode 755: the router runs as user fips and reads
# the hosts file and creates its control socket below it), removed at exit
# unless KEEP is set.
netns_workdir() {
  WORK=$(mktemp -d)
  chmod 755 "$WORK"
  [ -n "${KEEP:-}" ] || CLEANUPS+=("rm -rf $WORK")
}

# node_ns NODE NAMESPACE: creates NAMESPACE (loopback up) for NODE.
node_ns() {
  netns_add "$2"
  NODE_NS[$1]=$2
}

# in_ns NODE command...: runs the command in NODE's namespace.
in_ns() {
  local n=$1
  shift
  ip netns exec "${NODE_NS[$n]}" "$@"
}

# veth_link LEFT RIGHT LEFT_CIDR RIGHT_CIDR [LEFT_DEV RIGHT_DEV]: a veth pair
# between the namespaces of nodes LEFT and RIGHT, addressed and up. The
# devices are named v<LEFT><RIGHT>-PID and v<RIGHT><LEFT>-PID by default.
veth_link() {
  local l=$1 r=$2 la=$3 ra=$4 ld=${5:-v$1$2-$$} rd=${6:-v$2$1-$$}
  ip link add "$ld" netns "${NODE_NS[$l]}" type veth peer name "$rd" netns "${NODE_NS[$r]}"
  ip -n "${NODE_NS[$l]}" addr add "$la" dev "$ld"
  ip -n "${NODE_NS[$r]}" addr add "$ra" dev "$rd"
  ip -n "${NODE_NS[$l]}" link set "$ld" up
  ip -n "${NODE_NS[$r]}" link set "$rd" up
}

# netns_line PREFIX NET NODE...: nodes in a line, each in namespace
# PREFIX<NODE>-PID; hop i (1-based) joins the (i-1)th node as NET.i.1/24 and
# the ith as NET.i.2/24 (NET is two octets, e.g. 10.97). Remembered for
# line_peers.
netns_line() {
  local prefix=$1 net=$2
  shift 2
  local nodes=("$@") n i
  LINE_NODES=("$@")
  LINE_NET=$net
  for n in "${nodes[@]}"; do node_ns "$n" "$prefix$n-$$"; done
  for ((i = 1; i < ${#nodes[@]}; i++)); do
    veth_link "${nodes[$((i - 1))]}" "${nodes[$i]}" "$net.$i.1/24" "$net.$i.2/24"
  done
}

# line_peers NODE: sets PEERS to node_config's --peer options for NODE's
# neighbours in the last netns_line (udp, at the neighbour's hop address,
# port 2121).
PEERS=()
LINE_NODES=()
LINE_NET=""
line_peers() {
  local i
  PEERS=()
  for ((i = 0; i < ${#LINE_NODES[@]}; i++)); do
    [ "${LINE_NODES[$i]}" = "$1" ] || continue
    [ "$i" -gt 0 ] && PEERS+=(--peer "${LINE_NODES[$((i - 1))]}" "$LINE_NET.$i.1:2121")
    [ "$i" -lt $((${#LINE_NODES[@]} - 1)) ] &&
      PEERS+=(--peer "${LINE_NODES[$((i + 1))]}" "$LINE_NET.$((i + 1)).2:2121")
    return 0
  done
  echo "line_peers: $1 is not in the line" >&2
  return 1
}

# line_nodes PREFIX NET NODE... [-- option...]: a line of nodes ready for
# start_suite: netns_line PREFIX NET NODE..., netns_workdir, node_keygen,
# and each node's fips.yaml (node_config) with its line neighbours as static
# peers (line_peers) and the options after --, the same for every node. A
# test that needs more for one node calls node_config for it again.
line_nodes() {
  local prefix=$1 net=$2 nodes=() n
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do nodes+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  netns_line "$prefix" "$net" "${nodes[@]}"
  netns_workdir
  node_keygen "${nodes[@]}" || { echo "line_nodes: fipsctl keygen failed" >&2; return 1; }
  for n in "${nodes[@]}"; do
    line_peers "$n" && node_config "$n" "${PEERS[@]}" "$@" || return 1
  done
}

# node_keygen NODE...: a persistent identity for each node in $WORK/NODE
# (fips.key, fips.pub); sets NPUB[NODE].
node_keygen() {
  local n
  for n in "$@"; do
    mkdir -p "$WORK/$n"
    chmod 755 "$WORK/$n"
    "$BUILD/ctl/fipsctl" keygen -d "$WORK/$n" >/dev/null 2>&1 || return 1
    NPUB[$n]=$(cat "$WORK/$n/fips.pub")
  done
}

# node_config NODE [option]...: writes $WORK/NODE/fips.yaml. Always: the
# persistent identity of node_keygen, heartbeats every 1 s, retries after 1 s
# (backoff at most 2 s), the control socket $WORK/NODE/control.sock. Options:
#   --bind ADDR:PORT     transports.udp.bind_addr (default 0.0.0.0:2121)
#   --mtu N              transports.udp.mtu
#   --dead SECS          node.link_dead_timeout_secs (default 4)
#   --tun                the TUN fips0
#   --tun-mtu N          tun.mtu
#   --dns ADDR PORT      the .fips DNS responder
#   --node YAML          more lines under node: (written as given, indented 2)
#   --no-udp             no udp transport
#   --tcp ADDR:PORT      transports.tcp with bind_addr ADDR:PORT ("-": no listener)
#   --peer NODE ADDR     a static peer: NODE's npub at udp ADDR (host:port)
#   --tcp-peer NODE ADDR a static peer: NODE's npub at tcp ADDR (ip:port)
#   --alias NAME         alias of the peer before it
#   --on-demand          connect_policy on_demand for the peer before it
node_config() {
  local n=$1
  shift
  local bind=0.0.0.0:2121 mtu="" dead=4 tun="" tun_mtu="" dns="" node_extra="" peers="" udp=1 tcp=""
  while [ $# -gt 0 ]; do
    case $1 in
      --bind) bind=$2; shift 2 ;;
      --mtu) mtu=$2; shift 2 ;;
      --dead) dead=$2; shift 2 ;;
      --tun) tun=1; shift ;;
      --tun-mtu) tun_mtu=$2; shift 2 ;;
      --dns) dns="$2 $3"; shift 3 ;;
      --node) node_extra+=$(sed 's/^/  /' <<<"$2")$'\n'; shift 2 ;;
      --no-udp) udp=""; shift ;;
      --tcp) tcp=$2; shift 2 ;;
      --peer | --tcp-peer)
        [ -n "${NPUB[$2]:-}" ] || { echo "node_config: no key for node $2" >&2; return 1; }
        local via=udp
        [ "$1" = --tcp-peer ] && via=tcp
        peers+=$(printf '  - npub: "%s"\n    addresses:\n      - transport: %s\n        addr: "%s"' \
          "${NPUB[$2]}" "$via" "$3")$'\n'
        shift 3 ;;
      --alias) peers+="    alias: $2"$'\n'; shift 2 ;;
      --on-demand) peers+="    connect_policy: on_demand"$'\n'; shift ;;
      *) echo "node_config: unknown option $1" >&2; return 1 ;;
    esac
  done
  {
    cat <<YAML
node:
  identity:
    persistent: true
  heartbeat_interval_secs: 1
  link_dead_timeout_secs: $dead
  retry:
    base_interval_secs: 1
    max_backoff_secs: 2
  control:
    socket_path: "$WORK/$n/control.sock"
YAML
    printf '%s' "$node_extra"
    [ -z "$tun" ] || printf 'tun:\n  enabled: true\n  name: fips0\n'
    [ -z "$tun_mtu" ] || printf '  mtu: %s\n' "$tun_mtu"
    # shellcheck disable=SC2086
    [ -z "$dns" ] || printf 'dns:\n  enabled: true\n  bind_addr: "%s"\n  port: %s\n' $dns
    printf 'transports:\n'
    if [ -n "$udp" ]; then
      printf '  udp:\n    bind_addr: "%s"\n' "$bind"
      [ -z "$mtu" ] || printf '    mtu: %s\n' "$mtu"
    fi
    if [ "$tcp" = - ]; then
      printf '  tcp: {}\n'
    elif [ -n "$tcp" ]; then
      printf '  tcp:\n    bind_addr: "%s"\n' "$tcp"
    fi
    [ -z "$peers" ] || printf 'peers:\n%s' "$peers"
  } > "$WORK/$n/fips.yaml"
}

# start_suite NODE: runs NODE's fips suite in its namespace, stderr appended
# to $WORK/NODE.log (extra environment: start_suite's own, e.g.
# FIPS_HOSTS_FILE=... start_suite A); SUITE[NODE] is the supervisor's pid.
start_suite() {
  ip netns exec "${NODE_NS[$1]}" "$BUILD/fips" -c "$WORK/$1/fips.yaml" 2>>"$WORK/$1.log" &
  SUITE[$1]=$!
}

# stop_suite NODE [SIGNAL]: signals NODE's supervisor (TERM by default) and
# waits for it; its exit status is stop_suite's.
stop_suite() {
  local pid=${SUITE[$1]:-} rc
  [ -n "$pid" ] || return 0
  kill -"${2:-TERM}" "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  rc=$?
  unset "SUITE[$1]"
  return "$rc"
}

# suite_ready NODE: NODE's UDP worker is bound.
suite_ready() { grep -q "udp ready" "$WORK/$1.log" 2>/dev/null; }

# link_up NODE PEER: NODE has logged a link up to PEER (a node name).
link_up() { grep -q "link up: ${NPUB[$2]}" "$WORK/$1.log" 2>/dev/null; }

# links_up NODE PEER...: NODE has logged a link up to every PEER.
links_up() {
  local n=$1 p
  shift
  for p in "$@"; do link_up "$n" "$p" || return 1; done
}

# wait_link_up SECONDS NODE PEER...: waits until NODE has a link up to every PEER.
wait_link_up() {
  local secs=$1
  shift
  wait_until "$secs" links_up "$@"
}

# pids_gone PID...: none of the processes runs any more.
pids_gone() {
  local pid
  for pid in "$@"; do kill -0 "$pid" 2>/dev/null && return 1; done
  return 0
}

# teardown: stops every suite still running (TERM, then KILL after 10 s),
# runs CLEANUPS, removes every namespace and what still runs in it. The EXIT trap.
teardown() {
  local pids=("${SUITE[@]}") c ns pid
  if [ ${#pids[@]} -gt 0 ]; then
    kill -TERM "${pids[@]}" 2>/dev/null
    wait_until 10 pids_gone "${pids[@]}" || kill -KILL "${pids[@]}" 2>/dev/null
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  fi
  for c in "${CLEANUPS[@]}"; do eval "$c" || true; done
  for ns in "${NAMESPACES[@]}"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
  done
}

# finish: prints the summary line and exits non-zero on any failure.
finish() {
  echo "# $PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
}

trap teardown EXIT
