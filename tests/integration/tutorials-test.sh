#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every tutorial in docs/tutorials as a reader would: each page's
# ```sh blocks, in order, in one bash (variables carry over), with the
# build's programs first on PATH. A block that fails fails the page.
#
# Each page runs in its own mount namespace with tmpfs over /etc/fips and
# /run/fips (the first-node page uses the default paths) and in a fresh
# network namespace, so the host's network and files are left alone; the
# namespaces and processes a page makes are removed at the end even when
# it fails (by the names the tutorials use: a reader's own tutorial mesh
# running at that moment would go too).
set -u
BUILD=${1:?usage: tutorials-test.sh BUILD_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
DOCS=$(cd "$HERE/../../docs/tutorials" && pwd)
BUILD=$(cd "$BUILD" && pwd)
. "$HERE/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v dig >/dev/null || { echo "SKIP: dig not installed (bind9-dnsutils)"; exit 77; }
netns_workdir

# blocks PAGE: the page as a bash script, BLOCK set before each sh block.
blocks() {
  awk -v page="$(basename "$1")" '
    /^```sh[[:space:]]*$/ { inblock = 1; n++; printf "BLOCK=\"%s block %d\"\n", page, n; next }
    /^```/ && inblock { inblock = 0; next }
    inblock { print }
  ' "$1"
}

# run_page PAGE: runs the page's blocks as described above; prints its output.
run_page() {
  local page=$1 script="$WORK/$(basename "$1" .md).sh"
  {
    echo 'set -eE -o pipefail'
    echo 'trap '\''echo "FAILED in $BLOCK: line $LINENO: $BASH_COMMAND" >&2'\'' ERR'
    echo "export PATH=$BUILD:$BUILD/ctl:\$PATH"
    blocks "$page"
  } > "$script"
  timeout 150 unshare --mount --propagation private --net bash -c '
    mkdir -p /etc/fips /run/fips
    mount -t tmpfs -o mode=755 tmpfs /etc/fips
    mount -t tmpfs -o mode=755 tmpfs /run/fips
    ip link set lo up
    cd /tmp
    bash "$1"
  ' _ "$script"
}

# sweep: what a page that failed half-way leaves (its nodes and namespaces,
# by the tutorials' names); a page that ran green cleaned up after itself.
sweep() {
  local ns
  pkill -f "fips -c /tmp/fips-" 2>/dev/null
  sleep 0.5
  for ns in $(ip netns list | awk '/^fips-/ {print $1}'); do ip netns del "$ns"; done
  rm -rf /tmp/fips-a /tmp/fips-b /tmp/fips-you /tmp/fips-m1 /tmp/fips-m2 /etc/netns/fips-*
}

for page in "$DOCS"/first-node.md "$DOCS"/two-nodes.md "$DOCS"/join-a-mesh.md; do
  name=$(basename "$page")
  echo "== $name"
  n=$(blocks "$page" | grep -c '^BLOCK=')
  check "$name: has sh blocks ($n)" [ "$n" -gt 0 ]
  run_page "$page" > "$WORK/$name.out" 2>&1
  rc=$?
  sed 's/^/    /' "$WORK/$name.out"
  check "$name: every block ran green" [ "$rc" -eq 0 ]
  [ "$rc" -eq 0 ] || sweep
done
finish
