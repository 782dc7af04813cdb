#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The spanning tree between real fips suites over UDP in network namespaces
# (issue #5), five nodes in a line:
#
#   mA ---- mB ---- mC ---- mD ---- mE        one veth pair per hop,
#     10.98.1.0/24  .2.0/24  .3.0/24  .4.0/24   each node binds 0.0.0.0:2121
#
# Each node lists its neighbours as static peers; A also lists E with
# connect_policy on_demand, which makes A's router look E up (spec 03 §5; the
# stand-in trigger until sessions, #6, and `fipsctl probe`, #7, exist).
# Checks: all four links come up; the tree converges to one root (the
# smallest node_addr) with coordinates consistent at every node (each node's
# path is itself followed by its parent's path, and its parent is a line
# neighbour); A's lookup for E's node_addr returns E's coordinates; dropping
# B-C with nft splits the mesh into {A,B} and {C,D,E}, each with its own
# smallest root; removing the rule heals it into one tree again. State is
# read from the routers' log lines "tree: root R depth N parent P coords C"
# and "lookup: T resolved coords C".
set -u
BUILD=${1:?usage: mesh-line-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

NODES=(A B C D E)
# hop i joins NODES[i-1] (address .1) and NODES[i] (address .2) on 10.98.i.0/24.
line_nodes m 10.98 "${NODES[@]}" || exit 1
line_peers A
node_config A "${PEERS[@]}" --peer E 10.98.4.2:2121 --on-demand
for n in "${NODES[@]}"; do start_suite "$n"; done

line_up() { links_up A B && links_up B A C && links_up C B D && links_up D C E && links_up E D; }
check "all four links up" wait_until 20 line_up

# tree_ok GROUP...: each group (e.g. "A B") is one component of the mesh.
# True if, from each node's last tree line: every node of a group names the
# group's smallest node_addr as root, and each node's coordinates are itself
# followed by its parent's coordinates, its parent a line neighbour in the group.
tree_ok() {
  python3 - "$WORK" "$@" <<'PY'
import re, sys
work, groups = sys.argv[1], [g.split() for g in sys.argv[2:]]
line = "ABCDE"
state = {}
for n in line:
    last = None
    for l in open(f"{work}/{n}.log", errors="replace"):
        m = re.search(r"tree: root (\w+) depth (\d+) parent (\w+) coords ([\w,]+)", l)
        if m:
            last = m
    if not last:
        sys.exit(1)
    coords = last.group(4).split(",")
    state[n] = {"root": last.group(1), "parent": last.group(3), "coords": coords, "self": coords[0]}
for group in groups:
    root = min(state[n]["self"] for n in group)
    for n in group:
        s = state[n]
        if s["root"] != root or s["coords"][-1] != root:
            sys.exit(1)
        if s["parent"] == "none":
            if s["self"] != root:
                sys.exit(1)
            continue
        owners = [m for m in group if state[m]["self"] == s["parent"]]
        if len(owners) != 1 or abs(line.index(owners[0]) - line.index(n)) != 1:
            sys.exit(1)
        if s["coords"][1:] != state[owners[0]]["coords"]:
            sys.exit(1)
PY
}
show_trees() {
  for n in "${NODES[@]}"; do
    echo "# $n: $(grep -o 'tree: root [0-9a-f]\{8\}.* depth [0-9]*' "$WORK/$n.log" | tail -1)"
  done
}

check "one root, coordinates consistent at every node" wait_until 15 tree_ok "A B C D E"
show_trees

# E's coordinates as E logs them, and as A's lookup for E's node_addr returned them.
last_coords() { grep -o "tree: root .* coords [0-9a-f,]*" "$WORK/$1.log" | tail -1 | sed 's/.* coords //'; }
E_SELF=$(last_coords E | cut -d, -f1)
lookup_ok() {
  local got
  got=$(grep -o "lookup: $E_SELF resolved coords [0-9a-f,]*" "$WORK/A.log" | tail -1 | sed 's/.* coords //')
  [ -n "$got" ] && [ "$got" = "$(last_coords E)" ]
}
check "A's lookup for E's node_addr returns E's coordinates" wait_until 20 lookup_ok
echo "# A looked up E: $(grep -o "lookup: $E_SELF resolved.*" "$WORK/A.log" | tail -1 | cut -c1-60)..."

# --- drop B-C with nft (in B's namespace, both directions)
in_ns B nft -f - <<NFT
table inet fipsmesh {
  chain in { type filter hook input priority 0; iifname "vBC-$$" drop; }
  chain out { type filter hook output priority 0; oifname "vBC-$$" drop; }
}
NFT
check "B-C dropped: mesh splits into {A,B} and {C,D,E}, one root each" \
  wait_until 20 tree_ok "A B" "C D E"
show_trees

# --- restore B-C: one tree again
in_ns B nft delete table inet fipsmesh
check "B-C restored: the mesh heals into one tree" wait_until 20 tree_ok "A B C D E"
show_trees

for n in "${NODES[@]}"; do stop_suite "$n"; done
if [ "$FAILED" -ne 0 ]; then
  for n in "${NODES[@]}"; do echo "--- $n.log"; tail -15 "$WORK/$n.log"; done
fi
finish
