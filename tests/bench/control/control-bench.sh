#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Control-query latency of a node that forwards at full speed (issue #7):
#
#   bA ---- bB ---- bC     veth pairs 10.94.1.0/24 and 10.94.2.0/24, a fips
#                          suite with fips0 in each; A and C are not peers.
#
# bench-control asks B's control socket for `show status` and `show peers`
# (p50/p99/max over one connection and over a fresh connection per query),
# with the mesh idle, then while iperf3 sends TCP from A to C through B for
# as long as the loaded run takes; ROUNDS times, alternating, so that other
# load on the machine hits both alike. Prints the figures, iperf3's
# throughput, B's router CPU and whether the median loaded p99 <= 2 x the
# median idle p99 (the target); it gates nothing (a benchmark). Needs root,
# iperf3 and dig.
#
# Each run asks five times: at normal priority (what an operator's fipsctl
# is) from the script's session, the same with a 100 us EEVDF slice, at
# normal priority from a session of its own (as from a login shell while
# the node runs under systemd; see ask_all) without and with the slice,
# and at SCHED_FIFO 10 (chrt), which leaves only the daemon's share of the
# delay. B's control thread runs at SCHED_FIFO 1
# when the router could take it (its log says "control thread: SCHED_FIFO
# priority 1"). Every figure line also says how long, of the mean query and
# of the slowest 1 %, the client and B's control thread waited for a CPU
# (run_delay in /proc/.../schedstat). GAP_US (default 0: back to back)
# pauses the client after each query, as an operator's pace would.
#
#   tests/bench/control/control-bench.sh BUILD_DIR [QUERIES [ROUNDS [GAP_US]]]
set -u
BUILD=${1:?usage: control-bench.sh BUILD_DIR [QUERIES [ROUNDS [GAP_US]]]}
QUERIES=${2:-2000}
ROUNDS=${3:-3}
GAP_US=${4:-0}
. "$(dirname "$0")/../../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
for t in iperf3 dig; do command -v "$t" >/dev/null || { echo "needs $t"; exit 77; }; done
BENCH=$BUILD/tests/bench/control/bench-control
[ -x "$BENCH" ] || { echo "no $BENCH: configure with -Dbenchmarks=true"; exit 77; }

NODES=(A B C)
line_nodes b 10.94 "${NODES[@]}" -- --tun --dns ::1 5354 || exit 1
for n in "${NODES[@]}"; do start_suite "$n"; done
if ! wait_link_up 30 B A C; then
  echo "the mesh did not come up"
  tail -n 20 "$WORK"/*.log
  exit 1
fi
ADDR_C=$(in_ns A dig +short AAAA "${NPUB[C]}.fips" @::1 -p 5354 | head -1)
ping_c() { in_ns A ping -6 -c 1 -W 1 "$ADDR_C" >/dev/null 2>&1; }
wait_until 30 ping_c || { echo "no session A->C"; exit 1; }
SOCK_B=$WORK/B/control.sock

ROUTER_B=$(child_pid "${SUITE[B]}" fips-router)
ticks() { awk '{ print $14 + $15 }' /proc/"$ROUTER_B"/stat; }
HZ=$(getconf CLK_TCK)
# B's control thread: the router's one SCHED_FIFO thread (field 41 of stat
# is the policy; comm has no spaces). bench-control reads its run_delay.
CONTROL_B=
for task in /proc/"$ROUTER_B"/task/*; do
  [ "$(awk '{ print $41 }' "$task/stat")" = 1 ] && CONTROL_B=$task/schedstat
done
[ -n "$CONTROL_B" ] || CONTROL_B=/proc/$ROUTER_B/task/$ROUTER_B/schedstat

# ask_all idle|load R: bench-control five times, its figures appended to
# $WORK/{idle,load}{,-slice,-session,-session-slice,-rt}.txt: at normal
# priority from this script's session, where the three nodes and iperf3
# run too; the same with a 100 us EEVDF slice for the client; at normal
# priority from a session of its own (setsid), as fipsctl from an
# operator's login shell while the node runs under systemd (autogroups,
# like systemd's cgroups, share the CPU between sessions before threads),
# without and with the slice; and at SCHED_FIFO 10.
ask_all() {
  local opts=(--server-schedstat "$CONTROL_B" --gap-us "$GAP_US")
  "$BENCH" "$SOCK_B" "$QUERIES" "$1$2" "${opts[@]}" | tee -a "$WORK/$1.txt"
  "$BENCH" "$SOCK_B" "$QUERIES" "$1$2sl" "${opts[@]}" --slice-us 100 | tee -a "$WORK/$1-slice.txt"
  setsid -w "$BENCH" "$SOCK_B" "$QUERIES" "$1$2ses" "${opts[@]}" | tee -a "$WORK/$1-session.txt"
  setsid -w "$BENCH" "$SOCK_B" "$QUERIES" "$1$2sessl" "${opts[@]}" --slice-us 100 |
    tee -a "$WORK/$1-session-slice.txt"
  chrt -f 10 "$BENCH" "$SOCK_B" "$QUERIES" "$1$2rt" "${opts[@]}" | tee -a "$WORK/$1-rt.txt"
}

# loaded_round R: iperf3 A->C (TCP through B) running while bench-control asks B.
loaded_round() {
  # `ip netns exec` execs iperf3: $! is iperf3 itself.
  ip netns exec "${NODE_NS[C]}" iperf3 -s -1 -B "$ADDR_C" >/dev/null 2>&1 &
  local server=$! client t0 s0 t1 s1 mbps
  sleep 0.5
  ip netns exec "${NODE_NS[A]}" iperf3 -c "$ADDR_C" -t 600 -J > "$WORK/iperf-$1.json" 2>/dev/null &
  client=$!
  sleep 3  # past TCP slow start
  t0=$(ticks) s0=$(date +%s%N)
  ask_all load "$1"
  t1=$(ticks) s1=$(date +%s%N)
  kill -TERM "$client"  # iperf3 still writes its JSON summary
  wait "$client"
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  # Interrupted, the client has no receiver summary: its sent rate.
  mbps=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["end"]["sum_sent"]["bits_per_second"] / 1e6))' \
    "$WORK/iperf-$1.json" 2>/dev/null || echo "?")
  echo "# round $1: iperf3 A->C through B sent $mbps Mbit/s; B's router used" \
    "$(( (t1 - t0) * 100 * 1000000000 / HZ / (s1 - s0) ))% of a core"
}

echo "# B forwards A->C; queries go to B's control socket: $ROUNDS rounds of idle then" \
  "loaded, $QUERIES queries per kind on one connection, $((QUERIES / 10)) with a new one each"
for r in $(seq "$ROUNDS"); do
  ask_all idle "$r"
  loaded_round "$r"
done
echo "# load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores (other work on the machine skews the tails);" \
  "autogroups $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo "not built") (1: on)"

# median_of FILE KIND MODE FIELD: the median over the rounds of a figure:
# p99, or the slowest 1 %'s client or server wait for a CPU.
median_of() {
  grep "$2" "$1" | grep -- "$3" | awk -v f="$4" '{
      for (i = 1; i <= NF; i++) {
        if (f == "p99" && $i == "p99") print $(i + 1)
        if ($i == "1%" && f == "client") print $(i + 4)
        if ($i == "1%" && f == "server") print $(i + 7)
      }
    }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
echo "# B's control thread: $(grep -ho "control thread: [^;]*" "$WORK/B.log" | head -1)"
echo "# median over rounds of p99, idle -> loaded; then the loaded slowest 1 %'s" \
  "wait for a CPU (client / B's control thread), us"
for client in "normal" "slice" "session" "session-slice" "rt"; do
  case $client in
    normal) suffix= what="normal client, same session" ;;
    slice) suffix=-slice what="normal client, same session, 100 us slice" ;;
    session) suffix=-session what="normal client, own session" ;;
    session-slice) suffix=-session-slice what="normal client, own session, 100 us slice" ;;
    rt) suffix=-rt what="SCHED_FIFO client" ;;
  esac
  for kind in "show status" "show peers"; do
    for mode in "one connection" "connect+query"; do
      idle=$(median_of "$WORK/idle$suffix.txt" "$kind" "$mode" p99)
      loaded=$(median_of "$WORK/load$suffix.txt" "$kind" "$mode" p99)
      verdict=$(awk -v i="$idle" -v l="$loaded" 'BEGIN { printf "%.2fx: %s", l / i, (l <= 2 * i) ? "met" : "NOT met" }')
      echo "# $what, $kind, $mode: p99 $idle -> $loaded us ($verdict; target <= 2x);" \
        "waits $(median_of "$WORK/load$suffix.txt" "$kind" "$mode" client) /" \
        "$(median_of "$WORK/load$suffix.txt" "$kind" "$mode" server)"
    done
  done
done
