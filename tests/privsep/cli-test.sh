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

# --- issue #24: every mistake in one run, exit 1 on any error, 0 with warnings only
printf 'node:\n  identity:\n    persistant: true\n' > "$WORK/typo.yaml"
err=$("$FIPS" --check -c "$WORK/typo.yaml" 2>&1 >/dev/null); rc=$?
check "a misspelled key exits 1" [ "$rc" -eq 1 ]
check "a misspelled key: file:line, key and the suggestion" \
  [ "$err" = "$WORK/typo.yaml:3: node.identity.persistant: unknown key; did you mean 'persistent'?" ]

cat > "$WORK/many.yaml" <<YAML
node:
  identity:
    persistant: true
  log_level: verbose
transports:
  udp:
    bind_addr: "0.0.0.0:2121"
  ethernet:
    interface: eth0
peers:
  - npub: $NPUB
    addresses:
      - {transport: udpp, addr: "192.0.2.1:2121"}
      - {transport: udp, addr: "10.77.0.300:2121"}
YAML
err=$("$FIPS" --check -c "$WORK/many.yaml" 2>&1 >/dev/null); rc=$?
M=$WORK/many.yaml
check "several errors: exit 1" [ "$rc" -eq 1 ]
check "several errors: the typo" grep -qF "$M:3: node.identity.persistant: unknown key; did you mean 'persistent'?" <<<"$err"
check "several errors: the warning too" grep -qF "$M:4: node.log_level: \"verbose\" is not trace" <<<"$err"
check "several errors: a transport this build cannot run" grep -qF "$M:8: transports.ethernet: this build has no ethernet transport (it runs: udp, tcp)" <<<"$err"
check "several errors: an unknown transport name" grep -qF "$M:13: peers[0].addresses[0].transport: \"udpp\" is not a transport type" <<<"$err"
check "several errors: ...with a suggestion" grep -qF "did you mean 'udp'?" <<<"$err"
check "several errors: a bad IPv4 literal" grep -qF "$M:14: peers[0].addresses[1].addr: \"10.77.0.300:2121\": 10.77.0.300 is not a valid IPv4 address" <<<"$err"
check "several errors: four errors, in line order" \
  [ "$(grep -o "^$M:[0-9]*: [a-z]" <<<"$err" | grep -v ':4: ' | cut -d: -f2 | tr '\n' ' ')" = "3 8 13 14 " ]

printf 'node:\n  log_level: verbose\n' > "$WORK/warn.yaml"
check "warnings only: exit 0" bash -c "$FIPS --check -c $WORK/warn.yaml >/dev/null 2>&1"
check "warnings only: file:line shown" bash -c "$FIPS --check -c $WORK/warn.yaml 2>&1 >/dev/null | grep -q 'warn.yaml:2: node.log_level'"

printf 'transports:\n  udp: {}\npeers:\n  - npub: %s\n    addresses: [{transport: tor, addr: "x.onion:1"}]\n' "$NPUB" > "$WORK/tor.yaml"
check "a peer over a transport this build cannot run: exit 1" bash -c "! $FIPS --check -c $WORK/tor.yaml >/dev/null 2>&1"

# No config file anywhere on the search path: said plainly, with the paths.
if [ ! -e /etc/fips/fips.yaml ]; then
  mkdir -p "$WORK/empty-home" "$WORK/empty-cwd"
  err=$(cd "$WORK/empty-cwd" && HOME=$WORK/empty-home XDG_CONFIG_HOME= "$FIPS" --check 2>&1 >/dev/null); rc=$?
  check "no config file: exit 1" [ "$rc" -eq 1 ]
  check "no config file: says so and names the paths searched" grep -qF \
    "no config file found (searched /etc/fips/fips.yaml, $WORK/empty-home/.config/fips/fips.yaml, $WORK/empty-home/.fips.yaml, ./fips.yaml)" <<<"$err"
else
  echo "# /etc/fips/fips.yaml exists: the no-config case is not checked here"
fi

# Secrets open to group or others: warned at --check with the fix, files untouched.
mkdir -p "$WORK/keys"
"$BUILD/ctl/fipsctl" keygen -d "$WORK/keys" >/dev/null 2>&1
chmod 0644 "$WORK/keys/fips.key"
printf 'tun:\n  enabled: false\n' > "$WORK/keys/fips.yaml"
err=$("$FIPS" --check -c "$WORK/keys/fips.yaml" 2>&1 >/dev/null); rc=$?
check "a 0644 fips.key: --check still exits 0" [ "$rc" -eq 0 ]
check "a 0644 fips.key: warned, naming the file and the fix" grep -qF \
  "$WORK/keys/fips.key: holds the node's secret key but is open to group or others (mode 0644): chmod 600 $WORK/keys/fips.key" <<<"$err"
check "a 0644 fips.key: --check leaves its mode" [ "$(stat -c %a "$WORK/keys/fips.key")" = 644 ]
printf 'node:\n  identity:\n    nsec: %s\n' "$(cat "$WORK/keys/fips.key")" > "$WORK/nsec.yaml"
chmod 0644 "$WORK/nsec.yaml"
err=$("$FIPS" --check -c "$WORK/nsec.yaml" 2>&1 >/dev/null)
check "a 0644 config with an nsec: warned, naming the file and the fix" grep -qF \
  "$WORK/nsec.yaml: holds node.identity.nsec but is open to group or others (mode 0644): chmod 600 $WORK/nsec.yaml" <<<"$err"
chmod 0600 "$WORK/nsec.yaml"
check "a 0600 config with an nsec: no warning" bash -c "! $FIPS --check -c $WORK/nsec.yaml 2>&1 >/dev/null | grep -q 'chmod 600'"

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
