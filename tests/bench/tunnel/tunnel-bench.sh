#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# TUN-to-TUN throughput and latency through fips, side by side with its
# anchors in the same run, on the same kind of veths (issue #20 point 5):
#
#   1 hop:   A ---- B          fips; ctun with 2 AEAD layers; wireguard-go;
#                              yggdrasil (TCP peering)
#   2 hops:  A ---- B ---- C   fips (B forwards); ctun relay mode (B opens
#                              the link layer and seals it again)
#
# For each: iperf3 TCP 1 stream, TCP 4 streams, UDP 1300-byte datagrams at
# full rate (received rate), and ping over the tunnel idle and under a
# saturating TCP flow (p50 and p99 of 1 ping every 10 ms). Every figure is
# the median of RUNS runs of DUR seconds; the summary prints fips's ratio to
# each anchor measured in this run (this machine is shared: compare ratios).
#
# usage: tests/bench/tunnel/tunnel-bench.sh [BUILD_DIR]        (as root)
#   RUNS=3 DUR=5            runs per figure and seconds per run
#   ONLY="fips1 ctun1"      a subset of: fips1 fips2 ctun1 ctun2 wg ygg
#   CTUN_SRC=PATH           the minimal C tunnel (default ../shared/tools/limits/ctun.c)
# Needs iperf3, gcc, libssl-dev; the anchors wireguard-go + wireguard-tools
# and yggdrasil are run when installed:
#   apt-get install -y wireguard-go wireguard-tools yggdrasil
set -u
cd "$(dirname "$0")/../../.."
ROOT=$PWD
BUILD=$(realpath "${1:-build}")
RUNS=${RUNS:-3}
DUR=${DUR:-5}
ONLY=${ONLY:-fips1 fips2 ctun1 ctun2 wg ygg}
CTUN_SRC=${CTUN_SRC:-$ROOT/../shared/tools/limits/ctun.c}
case "${1:-}" in -h | --help) sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "run as root (network namespaces, TUN)"; exit 1; }
command -v iperf3 >/dev/null || { echo "iperf3 is not installed"; exit 1; }
. "$ROOT/tests/lib/netns.sh"
netns_workdir

declare -A FIG=()  # "<tunnel> <metric>" -> median

median() { sort -g | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]; else print "-"}'; }

# iperf_mbps NS ADDR [iperf3 args]: received Mbit/s of one run, or 0.
iperf_mbps() {
  local ns=$1 addr=$2
  shift 2
  ip netns exec "$ns" iperf3 -c "$addr" -t "$DUR" -J "$@" 2>/dev/null | python3 -c '
import json, sys
try:
    e = json.load(sys.stdin)["end"]
    s = e.get("sum_received") or e["sum"]
    print("%.0f" % (s["bits_per_second"] / 1e6))
except Exception:
    print(0)'
}

# ping_ms NS ADDR COUNT: per-reply round trips in ms, one per line.
ping_ms() {
  ip netns exec "$1" ping -6 -n -i 0.01 -c "$3" -W 1 "$2" 2>/dev/null |
    sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p'
}

# pct P: the P-th percentile of the numbers on stdin.
pct() { sort -g | awk -v p="$1" '{a[NR] = $1} END {if (!NR) {print "-"; exit} i = int(NR * p / 100 + 0.999); if (i < 1) i = 1; print a[i]}'; }

# measure NAME CLIENT_NS SERVER_NS ADDR: every figure of one tunnel.
measure() {
  local name=$1 cns=$2 sns=$3 addr=$4 i v tcp1=() tcp4=() udp=() idle=() loaded=() srv load
  ip netns exec "$sns" iperf3 -s -B "$addr" >/dev/null 2>&1 &
  srv=$!
  sleep 0.5
  for ((i = 0; i < RUNS; i++)); do
    tcp1+=("$(iperf_mbps "$cns" "$addr")")
    tcp4+=("$(iperf_mbps "$cns" "$addr" -P 4)")
    udp+=("$(iperf_mbps "$cns" "$addr" -u -b 0 -l 1300)")
  done
  ping_ms "$cns" "$addr" 300 > "$WORK/$name.idle"
  ip netns exec "$cns" iperf3 -c "$addr" -t $((DUR + 2)) >/dev/null 2>&1 &
  load=$!
  sleep 1
  ping_ms "$cns" "$addr" $((DUR * 80)) > "$WORK/$name.loaded"
  wait "$load" 2>/dev/null
  kill "$srv" 2>/dev/null
  wait "$srv" 2>/dev/null
  FIG[$name tcp1]=$(printf '%s\n' "${tcp1[@]}" | median)
  FIG[$name tcp4]=$(printf '%s\n' "${tcp4[@]}" | median)
  FIG[$name udp]=$(printf '%s\n' "${udp[@]}" | median)
  FIG[$name idle50]=$(pct 50 < "$WORK/$name.idle")
  FIG[$name idle99]=$(pct 99 < "$WORK/$name.idle")
  FIG[$name load50]=$(pct 50 < "$WORK/$name.loaded")
  FIG[$name load99]=$(pct 99 < "$WORK/$name.loaded")
  printf '%-8s TCP1 %s (%s)  TCP4 %s (%s)  UDP %s (%s) Mbit/s  ping idle p50/p99 %s/%s ms, loaded %s/%s ms\n' \
    "$name" "${FIG[$name tcp1]}" "${tcp1[*]}" "${FIG[$name tcp4]}" "${tcp4[*]}" \
    "${FIG[$name udp]}" "${udp[*]}" "${FIG[$name idle50]}" "${FIG[$name idle99]}" \
    "${FIG[$name load50]}" "${FIG[$name load99]}"
}

# fresh_line N: N namespaces tb{A,B,C}-PID in a line over veths
# 10.93.i.0/24 (the previous tunnel's are removed first).
fresh_line() {
  teardown_nodes
  local nodes=(A B C)
  netns_line tb 10.93 "${nodes[@]:0:$1}"
}

teardown_nodes() {
  local n pid
  for n in "${!SUITE[@]}"; do stop_suite "$n"; done
  for ns in "${NAMESPACES[@]}"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null
  done
  NAMESPACES=()
  NODE_NS=()
}

# run_fips HOPS: a line of HOPS+1 fips nodes with fips0 (MTU 1400 over a
# 1472-byte transport MTU, as integration.e2e), measured A -> last.
run_fips() {
  local hops=$1 nodes=(A B C) n last addr
  fresh_line $((hops + 1))
  nodes=("${nodes[@]:0:$((hops + 1))}")
  last=${nodes[$hops]}
  node_keygen "${nodes[@]}" || { echo "fipsctl keygen failed"; return 1; }
  for n in "${nodes[@]}"; do
    line_peers "$n" && node_config "$n" "${PEERS[@]}" --tun --tun-mtu 1400 --mtu 1472 || return 1
    rm -f "$WORK/$n.log"
    start_suite "$n"
  done
  up() { grep -q "TUN fips0 ready" "$WORK/$1.log" 2>/dev/null; }
  wait_until 20 up "$last" || { echo "fips$hops: $last's fips0 not ready"; return 1; }
  addr=$(grep -o "address fd[0-9a-f:]*" "$WORK/$last.log" | head -1 | cut -d' ' -f2)
  wait_until 30 in_ns A ping -6 -c 1 -W 1 "$addr" >/dev/null 2>&1 ||
    { echo "fips$hops: no ping to $addr"; return 1; }
  measure "fips$hops" "${NODE_NS[A]}" "${NODE_NS[$last]}" "$addr"
}

# ctun_tun NODE BIND PEER LAYERS: ctun's TUN end in NODE's namespace, up
# with fd77:1::N/64.
ctun_tun() {
  in_ns "$1" "$WORK/ctun" tun tbtun "$2" 5000 "$3" 5000 "$4" >/dev/null 2>&1 &
  sleep 0.5
  in_ns "$1" ip link set tbtun up mtu 1400
}

run_ctun1() {
  fresh_line 2
  ctun_tun A 10.93.1.1 10.93.1.2 2
  ctun_tun B 10.93.1.2 10.93.1.1 2
  in_ns A ip -6 addr add fd77:1::1/64 dev tbtun nodad
  in_ns B ip -6 addr add fd77:1::2/64 dev tbtun nodad
  wait_until 5 in_ns A ping -6 -c 1 -W 1 fd77:1::2 >/dev/null 2>&1 || { echo "ctun1: no ping"; return 1; }
  measure ctun1 "${NODE_NS[A]}" "${NODE_NS[B]}" fd77:1::2
}

run_ctun2() {
  fresh_line 3
  in_ns B "$WORK/ctun" relay 0.0.0.0 5000 10.93.1.1 5000 10.93.2.2 5000 >/dev/null 2>&1 &
  ctun_tun A 10.93.1.1 10.93.1.2 2
  ctun_tun C 10.93.2.2 10.93.2.1 2
  in_ns A ip -6 addr add fd77:1::1/64 dev tbtun nodad
  in_ns C ip -6 addr add fd77:1::2/64 dev tbtun nodad
  wait_until 5 in_ns A ping -6 -c 1 -W 1 fd77:1::2 >/dev/null 2>&1 || { echo "ctun2: no ping"; return 1; }
  measure ctun2 "${NODE_NS[A]}" "${NODE_NS[C]}" fd77:1::2
}

run_wg() {
  command -v wireguard-go >/dev/null && command -v wg >/dev/null ||
    { echo "wg: wireguard-go or wg not installed, skipped"; return 0; }
  fresh_line 2
  local ka kb pa pb side
  ka=$(wg genkey) kb=$(wg genkey)
  pa=$(wg pubkey <<<"$ka") pb=$(wg pubkey <<<"$kb")
  # distinct names: the UAPI sockets live in the shared /var/run/wireguard
  for side in a b; do
    WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD=1 \
      in_ns "${side^^}" wireguard-go -f "tbwg$side-$$" >/dev/null 2>&1 &
  done
  sleep 1.5
  in_ns A wg set "tbwga-$$" private-key <(echo "$ka") listen-port 5100 peer "$pb" endpoint 10.93.1.2:5100 allowed-ips fd78::/64
  in_ns B wg set "tbwgb-$$" private-key <(echo "$kb") listen-port 5100 peer "$pa" endpoint 10.93.1.1:5100 allowed-ips fd78::/64
  in_ns A ip -6 addr add fd78::1/64 dev "tbwga-$$" nodad
  in_ns B ip -6 addr add fd78::2/64 dev "tbwgb-$$" nodad
  in_ns A ip link set "tbwga-$$" up mtu 1420
  in_ns B ip link set "tbwgb-$$" up mtu 1420
  wait_until 10 in_ns A ping -6 -c 1 -W 1 fd78::2 >/dev/null 2>&1 || { echo "wg: no ping"; return 1; }
  measure wg "${NODE_NS[A]}" "${NODE_NS[B]}" fd78::2
}

run_ygg() {
  command -v yggdrasil >/dev/null || { echo "ygg: yggdrasil not installed, skipped"; return 0; }
  fresh_line 2
  local n addr
  for n in a b; do
    yggdrasil -genconf -json | python3 -c "
import json, sys
c = json.load(sys.stdin)
c['MulticastInterfaces'] = []; c['AdminListen'] = 'none'; c['IfName'] = 'tbygg$n'
if '$n' == 'a': c['Peers'] = ['tcp://10.93.1.2:12345']
else: c['Listen'] = ['tcp://10.93.1.2:12345']
json.dump(c, open('$WORK/ygg-$n.conf', 'w'))"
  done
  addr=$(yggdrasil -useconffile "$WORK/ygg-b.conf" -address)
  in_ns B yggdrasil -useconffile "$WORK/ygg-b.conf" -logto "$WORK/ygg-b.log" &
  in_ns A yggdrasil -useconffile "$WORK/ygg-a.conf" -logto "$WORK/ygg-a.log" &
  wait_until 20 in_ns A ping -6 -c 1 -W 1 "$addr" >/dev/null 2>&1 || { echo "ygg: no ping"; return 1; }
  measure ygg "${NODE_NS[A]}" "${NODE_NS[B]}" "$addr"
}

# ratio A B: A/B to two decimals, or "-".
ratio() {
  local a=${FIG[$1]:-} b=${FIG[$2]:-}
  [[ $a =~ ^[0-9.]+$ && $b =~ ^[0-9.]+$ ]] && awk -v a="$a" -v b="$b" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}' || echo "-"
}

if [[ " $ONLY " == *" ctun"* ]]; then
  [ -f "$CTUN_SRC" ] || { echo "ctun source not found: $CTUN_SRC (set CTUN_SRC)"; exit 1; }
  gcc -O2 -o "$WORK/ctun" "$CTUN_SRC" -lcrypto || exit 1
fi
[[ " $ONLY " == *" fips"* && ! -x "$BUILD/fips" ]] && { echo "no $BUILD/fips: build first"; exit 1; }

echo "tunnel bench: RUNS=$RUNS DUR=${DUR}s, $(nproc) cores, $(date -u +%FT%TZ)"
for t in $ONLY; do
  case $t in
    fips1) run_fips 1 ;;
    fips2) run_fips 2 ;;
    ctun1) run_ctun1 ;;
    ctun2) run_ctun2 ;;
    wg) run_wg ;;
    ygg) run_ygg ;;
    *) echo "unknown tunnel $t" ;;
  esac
done
teardown_nodes

echo
echo "ratios (fips / anchor, same run; >1 means fips is faster, for ping <1 is better):"
for m in tcp1 tcp4 udp; do
  printf '  %-5s 1 hop: /ctun %s  /wireguard-go %s  /yggdrasil %s   2 hops: /ctun relay %s\n' "$m" \
    "$(ratio "fips1 $m" "ctun1 $m")" "$(ratio "fips1 $m" "wg $m")" "$(ratio "fips1 $m" "ygg $m")" \
    "$(ratio "fips2 $m" "ctun2 $m")"
done
if [ -n "${FIG[fips1 load99]:-}" ]; then
  printf '  ping under load, 1 hop: p99 %s ms against 2 x idle p99 + 1 = %s ms\n' "${FIG[fips1 load99]}" \
    "$(awk -v i="${FIG[fips1 idle99]}" 'BEGIN {printf "%.3f", 2 * i + 1}')"
fi
