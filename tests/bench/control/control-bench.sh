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
# Each run asks twice: with bench-control at normal priority (what an
# operator's fipsctl sees: its own wake-up waits for a CPU too) and at
# SCHED_FIFO 10 (chrt), which leaves only the daemon's share of the delay.
# B's control thread runs at SCHED_FIFO 1 when the router could take it
# (its log says "control thread: SCHED_FIFO priority 1").
#
#   tests/bench/control/control-bench.sh BUILD_DIR [QUERIES [ROUNDS]]
set -u
BUILD=${1:?usage: control-bench.sh BUILD_DIR [QUERIES [ROUNDS]]}
QUERIES=${2:-2000}
ROUNDS=${3:-3}
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

ticks() { awk '{ print $14 + $15 }' /proc/"$(child_pid "${SUITE[B]}" fips-router)"/stat; }
HZ=$(getconf CLK_TCK)

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
  "$BENCH" "$SOCK_B" "$QUERIES" "load$1" | tee -a "$WORK/loaded.txt"
  chrt -f 10 "$BENCH" "$SOCK_B" "$QUERIES" "load$1rt" | tee -a "$WORK/loaded-rt.txt"
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
  "$BENCH" "$SOCK_B" "$QUERIES" "idle$r" | tee -a "$WORK/idle.txt"
  chrt -f 10 "$BENCH" "$SOCK_B" "$QUERIES" "idle${r}rt" | tee -a "$WORK/idle-rt.txt"
  loaded_round "$r"
done
echo "# load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores (other work on the machine skews the tails)"

# median_p99 FILE KIND MODE: the median over the rounds of the p99 column.
median_p99() {
  grep "$2" "$1" | grep -- "$3" | awk '{ for (i = 1; i <= NF; i++) if ($i == "p99") print $(i + 1) }' |
    sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
echo "# B's control thread: $(grep -ho "control thread: [^;]*" "$WORK/B.log" | head -1)"
for client in "normal" "rt"; do
  suffix=; [ "$client" = rt ] && suffix=-rt
  for kind in "show status" "show peers"; do
    for mode in "one connection" "connect+query"; do
      idle=$(median_p99 "$WORK/idle$suffix.txt" "$kind" "$mode")
      loaded=$(median_p99 "$WORK/loaded$suffix.txt" "$kind" "$mode")
      verdict=$(awk -v i="$idle" -v l="$loaded" 'BEGIN { printf "%.2fx idle: %s", l / i, (l <= 2 * i) ? "met" : "NOT met" }')
      echo "# $client client, $kind, $mode: median p99 idle $idle us, loaded $loaded us ($verdict; target <= 2x)"
    done
  done
done
