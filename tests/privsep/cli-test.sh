#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The `fips` command line: --help, -V, --check on good and bad configs, and
# the exit statuses (0 ok, 1 any error, as the reference's cli-fips).
set -u
BUILD=${1:?usage: cli-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
FIPS=$BUILD/fips
WORK=$(mktemp -d)
CLEANUPS+=("rm -rf $WORK")

check "--help exits 0 and names --check" bash -c "$FIPS --help | grep -q -- --check"
check "-V prints the version" bash -c "$FIPS -V | grep -Eq '^fips [0-9]+\.[0-9]+'"
check "an unknown option exits 2 (usage error)" bash -c "$FIPS --bogus 2>/dev/null; [ \$? -eq 2 ]"

printf 'tun:\n  enabled: true\n  mtu: 1400\n' > "$WORK/good.yaml"
check "--check to a full disk exits 1" bash -c "! $FIPS --check -c $WORK/good.yaml >/dev/full 2>/dev/null"
check "FIPS_LOG=garbage is warned about" bash -c "FIPS_LOG=garbage $FIPS --check -c $WORK/good.yaml 2>&1 >/dev/null | grep -q 'FIPS_LOG'"
check "--check on a good file exits 0" bash -c "$FIPS --check -c $WORK/good.yaml >/dev/null"
check "--check prints the effective config" bash -c "$FIPS --check -c $WORK/good.yaml | grep -q 'mtu: 1400'"
check "--check prints defaults too" bash -c "$FIPS --check -c $WORK/good.yaml | grep -q 'heartbeat_interval_secs: 10'"

printf 'node:\n  log_level: info\ntransports:\n  udp:\n    bind_addr: "1.2.3"\n' > "$WORK/fips.yaml"
err=$("$FIPS" --check -c "$WORK/fips.yaml" 2>&1 >/dev/null); rc=$?
check "a bad value exits 1" [ "$rc" -eq 1 ]
check "a bad value names file:line, key and reason" \
  [ "$err" = "$WORK/fips.yaml:5: transports.udp.bind_addr: \"1.2.3\" is not an address:port" ]

# Peer entries the router would refuse at runtime: all four named with file:line.
NPUB=npub1qmc3cvfz0yu2hx96nq3gp55zdan2qclealn7xshgr448d3nh6lks7zel98
cat > "$WORK/peers.yaml" <<YAML
peers:
  - npub: $NPUB
    alias: -gw
    addresses:
      - {transport: udp, addr: "192.0.2.1:0"}
  - npub: $NPUB
    addresses:
      - {transport: udp, addr: "[fd00::1]:2121"}
YAML
err=$("$FIPS" --check -c "$WORK/peers.yaml" 2>&1 >/dev/null); rc=$?
check "bad peer entries: exit 1" [ "$rc" -eq 1 ]
check "bad peer entries: an invalid alias" grep -q "peers.yaml:3: peers\[0\].alias: \"-gw\" is not a valid alias" <<<"$err"
check "bad peer entries: port 0" grep -q "peers.yaml:5: peers\[0\].addresses\[0\].addr: \"192.0.2.1:0\" is not a host:port" <<<"$err"
check "bad peer entries: the same npub twice" grep -q "peers.yaml:6: peers\[1\].npub: the same peer as peers\[0\]" <<<"$err"
check "bad peer entries: an fd00::/8 address" grep -q "peers.yaml:8: peers\[1\].addresses\[0\].addr: \"\[fd00::1\]:2121\" is in fd00::/8" <<<"$err"

printf 'node:\n  bogus_key: 1\n' > "$WORK/unknown.yaml"
check "an unknown key is a warning with file:line" \
  bash -c "$FIPS --check -c $WORK/unknown.yaml 2>&1 >/dev/null | grep -q 'unknown.yaml:2'"
check "an unknown key still exits 0" bash -c "$FIPS --check -c $WORK/unknown.yaml >/dev/null 2>&1"

one_line_error() {
  local out rc
  out=$("$FIPS" --check -c "$1" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && ! grep -qi 'terminate\|abort\|exception' <<<"$out"
}
printf '\x00\x01\x02garbage: [' > "$WORK/binary.yaml"
: > "$WORK/empty.yaml"
mkdir "$WORK/dir.yaml"
check "not YAML: one-line error, exit 1" one_line_error "$WORK/binary.yaml"
check "empty file: one-line error, exit 1" one_line_error "$WORK/empty.yaml"
check "a directory: one-line error, exit 1" one_line_error "$WORK/dir.yaml"
check "a missing file: one-line error, exit 1" one_line_error "$WORK/missing.yaml"

if [ "$(id -u)" -eq 0 ]; then
  printf 'node:\n  user: root\n' > "$WORK/root.yaml"
  err=$("$FIPS" -c "$WORK/root.yaml" 2>&1); rc=$?
  check "node.user root is refused, exit 1" [ "$rc" -eq 1 ]
  check "node.user root: says why" grep -q "must not run as root" <<<"$err"
fi

finish
