#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No key is ever lost (issue #24). `fipsctl keygen` writes fips.key and
# fips.pub; the real supervisor is then started from a fips.yaml beside them
# with node.identity.persistent false, misspelled ("persistant") and absent,
# and stopped. Each time both files stay byte-identical:
#   - false / absent: the node runs with a fresh in-memory identity and says
#     the key file is not used; a 0644 fips.key is warned about (chmod 600)
#     and left alone;
#   - misspelled: the start is refused (exit 1) with "did you mean".
# Last, persistent: true runs with exactly the keygen identity.
#
#   ns kk-$$: fips (A), udp 127.0.0.1:2121, no peers
set -u
BUILD=${1:?usage: key-kept-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }

node_ns A "kk-$$"
netns_workdir
node_keygen A || { echo "fipsctl keygen failed"; exit 1; }
node_config A --bind 127.0.0.1:2121
KEY=$WORK/A/fips.key
cp "$KEY" "$WORK/key.orig"
cp "$WORK/A/fips.pub" "$WORK/pub.orig"
PERSISTENT=$WORK/persistent.yaml
cp "$WORK/A/fips.yaml" "$PERSISTENT"

# exited PID: the process has ended (a zombie not yet waited for counts).
exited() {
  local st
  st=$(ps -o stat= -p "$1") || return 0
  [[ $st == Z* ]]
}
files_kept() { cmp -s "$KEY" "$WORK/key.orig" && cmp -s "$WORK/A/fips.pub" "$WORK/pub.orig"; }
runs_keygen_identity() { grep -q "identity ${NPUB[A]} " "$WORK/A.log"; }
runs_other_identity() { grep -q "identity npub1" "$WORK/A.log" && ! runs_keygen_identity; }

# run_node CASE: starts A from its fips.yaml, waits until its udp worker is
# ready, stops it; the checks common to a node that runs.
run_node() {
  : > "$WORK/A.log"
  start_suite A
  check "$1: the node runs" wait_until 10 suite_ready A
  stop_suite A
  check "$1: clean stop" [ $? -eq 0 ]
}

# --- persistent: false
sed 's/persistent: true/persistent: false/' "$PERSISTENT" > "$WORK/A/fips.yaml"
run_node "persistent false"
check "persistent false: a fresh identity, not the key file's" runs_other_identity
check "persistent false: says $KEY is not used" grep -q "$KEY is left as it is and not used" "$WORK/A.log"
check "persistent false: fips.key and fips.pub byte-identical" files_kept

# --- persistant: true (misspelled): refused, nothing touched
sed 's/persistent: true/persistant: true/' "$PERSISTENT" > "$WORK/A/fips.yaml"
: > "$WORK/A.log"
start_suite A
# A build that starts anyway is stopped after 10 s (then its status is 0).
wait_until 10 exited "${SUITE[A]}"
stop_suite A
RC=$?
check "persistant (misspelled): the start is refused, exit 1" [ "$RC" -eq 1 ]
check "persistant (misspelled): file:line and the suggestion" grep -q \
  "$WORK/A/fips.yaml:3: node.identity.persistant: unknown key; did you mean 'persistent'?" "$WORK/A.log"
check "persistant (misspelled): fips.key and fips.pub byte-identical" files_kept

# --- persistent absent, and fips.key left 0644 by its owner
grep -v 'identity:\|persistent:' "$PERSISTENT" > "$WORK/A/fips.yaml"
chmod 0644 "$KEY"
run_node "persistent absent"
check "persistent absent: a fresh identity, not the key file's" runs_other_identity
check "persistent absent: fips.key and fips.pub byte-identical" files_kept
check "persistent absent: the 0644 key file is warned about, with the fix" grep -q \
  "$KEY: holds the node's secret key but is open to group or others (mode 0644): chmod 600 $KEY" "$WORK/A.log"
check "persistent absent: the key file's mode is left alone" [ "$(stat -c %a "$KEY")" = 644 ]
chmod 0600 "$KEY"

# --- persistent: true uses the keygen identity
cp "$PERSISTENT" "$WORK/A/fips.yaml"
run_node "persistent true"
check "persistent true: runs with the keygen identity" runs_keygen_identity
check "persistent true: fips.key and fips.pub byte-identical" files_kept

finish
