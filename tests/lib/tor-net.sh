# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# A private Tor network in one network namespace with no route out, the
# shape of chutney's hs-min network: three directory authorities (keys made
# with tor-gencert, also relays), two more relays (every relay votes Guard,
# Exit and HSDir), then any number of client tors the test adds (SocksPort,
# ControlPort, HiddenServiceDir: whatever torrc lines it passes). Every tor
# listens on 127.0.0.1 with its own ports; nothing leaves the namespace.
# Source after tests/lib/netns.sh (which removes the namespace and kills what
# runs in it at exit). Needs root and Debian's tor (tor, tor-gencert).
#
#   tor_net_start NS DIR           namespace NS (made here), state in DIR
#   tor_net_tor NAME [LINE...]     starts a client tor NAME with extra torrc lines
#   tor_net_wait_bootstrap NAME S  waits up to S seconds for "Bootstrapped 100%"
#   tor_net_stop NAME              stops tor NAME (TERM, waits); tor_net_launch
#                                  NAME starts it again from its torrc
#   tor_net_log NAME               the notice log of NAME
#
# Ports: authority i ORPort 5100+i DirPort 7100+i, relay i ORPort 5110+i
# DirPort 7110+i; the test's tors choose their own (e.g. SocksPort 9050+k).

TOR_NET_NS=""
TOR_NET_DIR=""
TOR_NET_AUTHS=3
TOR_NET_RELAYS=2

# tor_net_common NAME: the torrc lines every tor of the network has.
# Voting: the first consensus after 5 s intervals (2 s vote, 2 s dist), then
# every 10 s; a consensus is valid for 2 intervals, as chutney's fast networks.
tor_net_common() {
  local d=$TOR_NET_DIR/$1
  cat <<EOF
TestingTorNetwork 1
DataDirectory $d
PidFile $d/pid
Nickname $1
Log notice file $d/notice.log
Log info file $d/info.log
SafeLogging 0
LogTimeGranularity 1
ShutdownWaitLength 0
PathsNeededToBuildCircuits 0.67
TestingDirAuthVoteExit *
TestingDirAuthVoteHSDir *
TestingDirAuthVoteGuard *
TestingMinExitFlagThreshold 0
V3AuthNIntervalsValid 2
EOF
  cat "$TOR_NET_DIR/dirauthorities"
}

# tor_net_fingerprint DATADIR: makes the relay identity key in DATADIR and
# prints its fingerprint (40 hex digits).
tor_net_fingerprint() {
  tor --quiet --ignore-missing-torrc --defaults-torrc /dev/null --list-fingerprint \
    --orport 1 --dirserver "x 127.0.0.1:1 ffffffffffffffffffffffffffffffffffffffff" \
    --datadirectory "$1" | awk '{ $1 = ""; gsub(/ /, ""); print }'
}

# tor_net_launch NAME: starts tor NAME from DIR/NAME/torrc in the namespace.
# Without MALLOC_PERTURB_ (meson sets it for tests): with it, tor 0.4.9.11's
# onion service connections time out (seen with MALLOC_PERTURB_=24).
tor_net_launch() {
  local d=$TOR_NET_DIR/$1
  ip netns exec "$TOR_NET_NS" env -u MALLOC_PERTURB_ tor --defaults-torrc /dev/null -f "$d/torrc" \
    >"$d/stdout.log" 2>&1 &
  disown
}

# tor_net_relay_torrc NAME ORPORT DIRPORT [LINE...]: writes a relay's torrc.
tor_net_relay_torrc() {
  local name=$1 orport=$2 dirport=$3
  shift 3
  {
    tor_net_common "$name"
    cat <<EOF
SocksPort 0
Address 127.0.0.1
ORPort $orport
DirPort $dirport
AssumeReachable 1
ExitRelay 0
ExitPolicy reject *:*
EOF
    printf '%s\n' "$@"
  } >"$TOR_NET_DIR/$name/torrc"
}

# tor_net_start NS DIR: creates namespace NS, makes the authorities' keys and
# starts the three authorities and two relays.
tor_net_start() {
  TOR_NET_NS=$1
  TOR_NET_DIR=$2
  netns_add "$TOR_NET_NS"
  mkdir -p "$TOR_NET_DIR"
  : >"$TOR_NET_DIR/dirauthorities"
  local i name d v3 fpr
  for ((i = 0; i < TOR_NET_AUTHS; i++)); do
    name=auth$i
    d=$TOR_NET_DIR/$name
    mkdir -p "$d/keys"
    chmod 700 "$d"
    echo "" | tor-gencert --create-identity-key --passphrase-fd 0 -m 12 \
      -a "127.0.0.1:$((7100 + i))" -i "$d/keys/authority_identity_key" \
      -s "$d/keys/authority_signing_key" -c "$d/keys/authority_certificate" \
      >"$d/gencert.log" 2>&1 || { cat "$d/gencert.log"; return 1; }
    v3=$(awk '/^fingerprint / { print $2 }' "$d/keys/authority_certificate")
    fpr=$(tor_net_fingerprint "$d")
    [ ${#fpr} -eq 40 ] || { echo "tor_net_start: no fingerprint for $name" >&2; return 1; }
    echo "DirAuthority $name orport=$((5100 + i)) no-v2 v3ident=$v3 127.0.0.1:$((7100 + i)) $fpr" \
      >>"$TOR_NET_DIR/dirauthorities"
  done
  for ((i = 0; i < TOR_NET_AUTHS; i++)); do
    tor_net_relay_torrc "auth$i" $((5100 + i)) $((7100 + i)) \
      "AuthoritativeDirectory 1" "V3AuthoritativeDirectory 1" "ContactInfo auth$i@test.invalid" \
      "TestingV3AuthInitialVotingInterval 5" "TestingV3AuthInitialVoteDelay 2" \
      "TestingV3AuthInitialDistDelay 2" "V3AuthVotingInterval 10" "V3AuthVoteDelay 2" \
      "V3AuthDistDelay 2"
  done
  for ((i = 0; i < TOR_NET_RELAYS; i++)); do
    mkdir -p "$TOR_NET_DIR/relay$i"
    chmod 700 "$TOR_NET_DIR/relay$i"
    tor_net_relay_torrc "relay$i" $((5110 + i)) $((7110 + i))
  done
  for ((i = 0; i < TOR_NET_AUTHS; i++)); do tor_net_launch "auth$i"; done
  for ((i = 0; i < TOR_NET_RELAYS; i++)); do tor_net_launch "relay$i"; done
}

# tor_net_tor NAME [LINE...]: starts a client tor NAME of the network with
# the extra torrc LINEs (SocksPort, ControlPort, HiddenServiceDir...).
tor_net_tor() {
  local name=$1
  shift
  mkdir -p "$TOR_NET_DIR/$name"
  chmod 700 "$TOR_NET_DIR/$name"
  {
    tor_net_common "$name"
    printf '%s\n' "$@" | grep -q '^SocksPort ' || echo "SocksPort 0"
    printf '%s\n' "$@"
  } >"$TOR_NET_DIR/$name/torrc"
  tor_net_launch "$name"
}

# tor_net_stop NAME: stops tor NAME (its PidFile) and waits until it is gone.
tor_net_stop() {
  local pid
  pid=$(cat "$TOR_NET_DIR/$1/pid" 2>/dev/null) || return 0
  kill "$pid" 2>/dev/null
  wait_until 10 pids_gone "$pid" || kill -9 "$pid" 2>/dev/null
  rm -f "$TOR_NET_DIR/$1/pid"
}

# tor_net_log NAME: path of tor NAME's notice log.
tor_net_log() { echo "$TOR_NET_DIR/$1/notice.log"; }

# tor_net_bootstrapped NAME: tor NAME logged "Bootstrapped 100%".
tor_net_bootstrapped() { grep -q "Bootstrapped 100%" "$TOR_NET_DIR/$1/notice.log" 2>/dev/null; }

# tor_net_wait_bootstrap NAME SECONDS
tor_net_wait_bootstrap() { wait_until "$2" tor_net_bootstrapped "$1"; }

# tor_net_dump: the last lines of every tor's notice log (after a failure).
tor_net_dump() {
  local f
  for f in "$TOR_NET_DIR"/*/notice.log; do
    echo "--- $f"
    tail -n 15 "$f"
  done
}
