# SPDX-License-Identifier: MIT
# Boundary: supervisor `fips` (root, no network input) <-> every child
# (fips-router and fips-transport-* unprivileged; fips-tun-helper with only
# CAP_NET_ADMIN+CAP_NET_RAW). Channel: SOCK_SEQPACKET socketpair on fd 3 of
# the child, one capnp message per packet.
#
# Direction supervisor -> child (SupervisorRequest):
#   fds: at most 1: attachTransport carries the router's end of a new
#   router<->transport channel; the router's configure carries the control
#   socket's listening fd (control.capnp) when node.control.enabled, and
#   RouterConfig.controlSocket names it. 0 on every other request.
#   configure       state START only, exactly once; then state RUNNING.
#   setLogLevel     state RUNNING.
#   attachTransport state RUNNING, router only; once per (re)started worker.
#   shutdown        state RUNNING; the child exits within 5 s.
# Direction child -> supervisor (ChildEvent): fds: 0 always.
#   hello           state START, exactly once (first message of a child).
#   ready           once, after configure has been applied.
# Anything else, or any fd from a child, is fatal to the supervisor.
@0x922dd3ff59f803a7;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fips::schema");

using Common = import "common.capnp";

enum Role {
  router @0;
  tunHelper @1;
  transport @2;
}

# The router's slice of the configuration: the identity secret lives only
# here (no other child ever receives it).
struct RouterConfig {
  nsec @0 :Data;          # 32-byte secret key
  tunName @1 :Text;
  tunMtu @2 :UInt16;
  tunEnabled @3 :Bool;
  user @4 :Text;
  peers @5 :List(StaticPeer);
  link @6 :LinkSettings;
  mesh @7 :MeshSettings;
  dns @8 :DnsSettings;
  controlSocket @9 :Text;            # path of the control socket, "" when disabled
  leafOnly @10 :Bool;                 # node.leaf_only
  transportMtu @11 :UInt16;  # min MTU of the UDP transports (bytes); 0 = 1280
  session @12 :SessionSettings;
  controlJsonCompat @13 :Bool;       # node.control.json_compat: JSON-line clients on the control socket
  controlUnavailable @14 :Text;      # why there is no control socket although node.control.enabled ("" otherwise)
}

# node.session.* and node.rate_limit.session_setup_* of fips.yaml (spec 04 §8).
struct SessionSettings {
  defaultTtl @0 :UInt8;
  pendingPacketsPerDest @1 :UInt32;
  pendingMaxDestinations @2 :UInt32;
  idleTimeoutSecs @3 :UInt64;            # 0 disables idle teardown
  coordsWarmupPackets @4 :UInt8;
  coordsResponseIntervalMs @5 :UInt64;
  setupBurst @6 :UInt32;                 # node.rate_limit.session_setup_burst
  setupRate @7 :Float64;                 # node.rate_limit.session_setup_rate, per second
}

# dns.* of fips.yaml (spec 05 §4) and the hosts file the router reads
# (spec 05 §5; /etc/fips/hosts unless env FIPS_HOSTS_FILE names another).
struct DnsSettings {
  enabled @0 :Bool;
  bindAddr @1 :Text;      # an IP address, no port
  port @2 :UInt16;
  ttl @3 :UInt32;         # seconds
  hostsPath @4 :Text;
}

# One `peers[]` entry of fips.yaml.
struct StaticPeer {
  npub @0 :Text;
  alias @1 :Text;                    # "" when unset
  addresses @2 :List(PeerAddress);
  autoConnect @3 :Bool;              # connect_policy auto_connect
}

struct PeerAddress {
  transport @0 :Text;                # "udp" or "udp/<instance>"
  addr @1 :Text;                     # "host:port" as written in fips.yaml
  priority @2 :UInt8;
}

# node.* timers and limits of the FMP link layer (spec 02 §10), as configured.
struct LinkSettings {
  heartbeatIntervalSecs @0 :UInt64;
  linkDeadTimeoutSecs @1 :UInt64;
  handshakeTimeoutSecs @2 :UInt64;
  handshakeResendIntervalMs @3 :UInt64;
  handshakeResendBackoff @4 :Float64;
  handshakeMaxResends @5 :UInt32;
  handshakeBurst @6 :UInt32;
  handshakeRate @7 :Float64;
  maxPeers @8 :UInt64;
  maxLinks @9 :UInt64;
  maxPendingInbound @10 :UInt64;
  retryBaseIntervalSecs @11 :UInt64;
  retryMaxBackoffSecs @12 :UInt64;
  rekeyEnabled @13 :Bool;
  rekeyAfterSecs @14 :UInt64;
  rekeyAfterMessages @15 :UInt64;
  tickIntervalSecs @16 :UInt64;
  mmpMode @17 :MmpMode;          # node.mmp.mode (spec 02 §9)
  mmpOwdWindowSize @18 :UInt32;  # node.mmp.owd_window_size
}

enum MmpMode {
  full @0;
  lightweight @1;
  minimal @2;
}

# node.tree/bloom/lookup/cache settings of the mesh layer (spec 03 §8), as
# configured.
struct MeshSettings {
  treeAnnounceMinIntervalMs @0 :UInt64;
  treeParentHysteresis @1 :Float64;
  treeHoldDownSecs @2 :UInt64;
  treeReevalIntervalSecs @3 :UInt64;
  treeFlapThreshold @4 :UInt32;
  treeFlapWindowSecs @5 :UInt64;
  treeFlapDampeningSecs @6 :UInt64;
  bloomUpdateDebounceMs @7 :UInt64;
  bloomMaxInboundFpr @8 :Float64;
  lookupTtl @9 :UInt8;
  lookupAttemptTimeoutsSecs @10 :List(UInt64);
  lookupRecentExpirySecs @11 :UInt64;
  lookupBackoffBaseSecs @12 :UInt64;
  lookupBackoffMaxSecs @13 :UInt64;
  lookupForwardMinIntervalSecs @14 :UInt64;
  cacheCoordSize @15 :UInt64;
  cacheCoordTtlSecs @16 :UInt64;
  cacheIdentitySize @17 :UInt64;
}

# The tun-helper's slice: the device to create and the node's address.
struct TunConfig {
  enabled @0 :Bool;
  name @1 :Text;
  mtu @2 :UInt16;
  address @3 :Data;       # 16-byte fd00::/8 address of this node
  user @4 :Text;          # user to switch to, keeping NET_ADMIN+NET_RAW
  dnsBindAddr @5 :Text;   # dns.bind_addr when dns.port is privileged
  dnsPort @6 :UInt16;     # dns.port if 1..1023 and dns.enabled, else 0 (no socket)
}

# A transport worker's slice: its type and instance name, where to bind and
# its socket sizes. Never any key material.
struct TransportConfig {
  type @0 :Text;          # "udp" or "tcp"
  instance @1 :Text;      # "" for a single unnamed instance
  bindAddr @2 :Text;      # "address:port" as in fips.yaml
  recvBufSize @3 :UInt32; # bytes, SO_RCVBUF
  sendBufSize @4 :UInt32; # bytes, SO_SNDBUF
  mtu @5 :UInt16;
  batchSize @6 :UInt16;   # datagrams per recvmmsg/sendmmsg
  user @7 :Text;          # user to switch to once the sockets are bound
  # Stream transports (tcp) only; bindAddr "" means no listener.
  connectTimeoutMs @8 :UInt32;       # outbound connect deadline
  nodelay @9 :Bool;                  # TCP_NODELAY
  keepaliveSecs @10 :UInt32;         # TCP_KEEPIDLE; 0 = no keepalive
  maxInboundConnections @11 :UInt32; # accepted connections open at once
}

struct SupervisorRequest {
  union {
    configure :group {
      logLevel @0 :Common.LogLevel;
      union {
        router @1 :RouterConfig;
        tun @2 :TunConfig;
        transport @3 :TransportConfig;
      }
    }
    setLogLevel @4 :Common.LogLevel;
    attachTransport @5 :Text;   # the transport's name; fd attached
    shutdown @6 :Void;
  }
}

struct ChildEvent {
  union {
    hello :group {
      role @0 :Role;
      pid @1 :UInt32;
    }
    ready @2 :Void;
  }
}
