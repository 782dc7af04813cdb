# SPDX-License-Identifier: MIT
# Boundary: fipsctl / fipstop (any local user who can open the socket: root
# and members of group `fips`) <-> the fips-router's control service
# (unprivileged, seccomp), Cap'n Proto RPC over a Unix stream socket
# (default /run/fips/control.sock, mode 0770, group fips; its parent 0750).
#
# The supervisor `fips` (root) resolves the path, creates the parent,
# binds and listens, sets mode and group, and hands the listening fd to the
# router with its configure message; it removes the socket at exit. The
# router never binds or opens paths: it only accepts on that fd, from a
# dedicated control thread with its own KJ event loop
# (docs/design/privsep.md "Event loops").
#
# fds: 0 in both directions (the server's maxFdsPerMessage is 0).
# Limits on the server: one RPC message is at most 64 Ki words (512 KiB,
# traversal limit, both ways: capnp sends nothing larger either, and the
# largest reply, statsAllHistory over the 1 h ring, is ~36 Ki words; a larger
# request is refused by capnp before it is read in full and closes that
# connection), 256 connections at once (a new one then closes
# the oldest that has not sent a byte yet), and a connection that sends
# nothing for 5 s after it opens, or later nothing for 60 s, is closed. No message is legal only in some
# state: the bootstrap is FipsControl and every method may be called any time.
# With node.control.json_compat (off by default) the same socket also speaks
# the reference's line-delimited JSON protocol to a client whose first byte
# is '{' or JSON whitespace (router/control/json/session.h); a Cap'n Proto
# client's first byte is the low byte of its first message's segment count
# - 1 (0 for the single-segment messages fipsctl sends), so only a first
# message of 10, 11, 14, 33 or 124 segments would be taken for JSON.
# Read methods answer from the snapshot the data-plane thread publishes
# once per tick (so a busy node answers at once); connect and disconnect
# cross to the data-plane thread (control-bridge.capnp) and wait for it.
@0x99dbae81e990a3b1;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fips::schema");

using Common = import "common.capnp";

# Node overview (fipsctl show status; the reference's show_status keys).
struct NodeStatus {
  npub @0 :Text;
  nodeAddr @1 :Data;      # 16 bytes
  ipv6 @2 :Data;          # 16 bytes, fd00::/8
  version @3 :Text;
  uptimeSecs @4 :UInt64;
  peerCount @5 :UInt32;
  tunName @6 :Text;       # "" when the TUN is disabled
  state @7 :Text;         # "running" or "stopping"
  isLeafOnly @8 :Bool;    # node.leaf_only as configured
  linkCount @9 :UInt32;
  connectionCount @10 :UInt32;  # outbound handshakes in progress
  transportCount @11 :UInt32;   # transport workers attached
  tunState @12 :Text;     # "disabled", "configured" (waiting for the device), "active", "failed"
  controlSocket @13 :Text;
  pid @14 :UInt32;
  exePath @15 :Text;
  transportPeerCounts @16 :List(TransportPeerCount);
}

# Peers whose link rides transports of one type.
struct TransportPeerCount {
  type @0 :Text;          # "udp"
  count @1 :UInt32;
}

# One authenticated peer (fipsctl show peers).
struct PeerStatus {
  nodeAddr @0 :Data;      # 16 bytes
  npub @1 :Text;
  displayName @2 :Text;   # configured alias, else the short npub
  ipv6 @3 :Data;          # 16 bytes
  transportId @4 :UInt32;
  transportType @5 :Text; # "udp"
  transportName @6 :Text; # "udp" or "udp/<instance>"
  transportAddr @7 :Text; # "192.0.2.1:2121", "[2001:db8::1]:2121"
  outbound @8 :Bool;      # our handshake built the session in use
  authenticatedAtMs @9 :UInt64;  # Unix ms when the link came up
  lastSeenMs @10 :UInt64;        # Unix ms of the last authenticated frame
  ourIndex @11 :UInt32;   # receiver_idx the peer puts in frames to us
  theirIndex @12 :UInt32;
  rekeys @13 :UInt64;     # completed rekey cutovers
  rekeyInProgress @14 :Bool;
  stats @15 :LinkTraffic;
  mmp @16 :LinkMmp;       # fipsctl show mmp is answered from these
}

# One FMP link (fipsctl show links): one per authenticated peer.
struct LinkStatus {
  transportId @0 :UInt32;
  remoteAddr @1 :Text;
  outbound @2 :Bool;
  state @3 :Text;         # "connected"
  createdAtMs @4 :UInt64; # Unix ms
  lastRecvMs @5 :UInt64;  # Unix ms
  npub @6 :Text;          # the peer on the link
  stats @7 :LinkTraffic;
  displayName @8 :Text;   # the peer's, as in PeerStatus
}

# Frames and bytes (whole FMP packets) on one link since it came up: every
# frame sealed / authenticated, handshakes excluded (the reference's per-peer
# and per-link "stats").
struct LinkTraffic {
  packetsSent @0 :UInt64;
  packetsRecv @1 :UInt64;
  bytesSent @2 :UInt64;
  bytesRecv @3 :UInt64;
}

# Link-layer MMP of one peer link (spec 02 §9; the reference's show_mmp
# peers[].link_layer). Optional values carry a has* flag; trends are
# "rising", "falling", "stable", or "" before their first sample.
struct LinkMmp {
  mode @0 :Text;           # "full", "lightweight", "minimal"
  spinBitRole @1 :Text;    # "initiator" or "responder"
  hasSrtt @2 :Bool;
  srttMs @3 :Float64;
  rttvarMs @4 :Float64;
  lossRate @5 :Float64;    # 1 - forward delivery ratio
  etx @6 :Float64;
  goodputBps @7 :Float64;  # bytes/s
  deliveryRatioForward @8 :Float64;
  deliveryRatioReverse @9 :Float64;
  hasSmoothedLoss @10 :Bool;
  smoothedLoss @11 :Float64;
  hasSmoothedEtx @12 :Bool;
  smoothedEtx @13 :Float64;
  rttTrend @14 :Text;
  lossTrend @15 :Text;
  goodputTrend @16 :Text;
  jitterTrend @17 :Text;
  ecnCeCount @18 :UInt32;  # CE marks the peer saw on our frames
  jitterUs @19 :UInt32;    # our RFC 3550 estimate of the peer's frames
  linkCost @20 :Float64;   # ETX x (1 + SRTT_ms / 100); 1.0 without SRTT
  senderReportsSent @21 :UInt64;
  receiverReportsSent @22 :UInt64;
  senderReportsRecv @23 :UInt64;
  receiverReportsRecv @24 :UInt64;
  staleReports @25 :UInt64;
  rttSamples @26 :UInt64;
  reorderCount @27 :UInt64;
  lossBursts @28 :UInt64;
}

# One transport worker (fipsctl show transports).
struct TransportStatus {
  transportId @0 :UInt32;
  type @1 :Text;          # "udp"
  name @2 :Text;          # "udp" or "udp/<instance>"
  state @3 :Text;         # "starting" (attached, not bound yet) or "up"
  localAddrs @4 :List(Text);
  packetsSent @5 :UInt64; # as counted by the router
  packetsRecv @6 :UInt64;
  bytesSent @7 :UInt64;
  bytesRecv @8 :UInt64;
  sendErrors @9 :UInt64;  # as last reported by the worker
  kernelDrops @10 :UInt64;
  workerRecv @11 :UInt64; # datagrams the worker read
  workerSent @12 :UInt64; # datagrams the worker sent
  counters @13 :List(Common.NamedCounter); # the worker's own (tcp: TcpStats names)
}

# One counter (fipsctl stats metrics). Monotonic since the router started.
struct Counter {
  family @0 :Text;        # "link", "transport"
  name @1 :Text;          # "handshakes_out", "drops", ...
  labelName @2 :Text;     # "" or e.g. "reason"
  labelValue @3 :Text;
  value @4 :UInt64;
  help @5 :Text;          # one line
}

# One tree peer's view (fipsctl show tree, the reference's show_tree peers[]).
struct TreePeer {
  nodeAddr @0 :Data;      # 16 bytes
  displayName @1 :Text;
  hasCoords @2 :Bool;     # false until its first TreeAnnounce; the rest is unset then
  coords @3 :List(Data);  # 16 bytes each, the peer first, the root last
  depth @4 :UInt32;
  root @5 :Data;          # 16 bytes
  distanceToUs @6 :UInt32; # tree hops between its coordinates and ours
}

# Our spanning tree position (fipsctl show tree; the reference's show_tree).
struct TreeStatus {
  myNodeAddr @0 :Data;    # 16 bytes
  root @1 :Data;          # 16 bytes
  rootNpub @2 :Text;      # "" when the root's key is not known here
  isRoot @3 :Bool;
  depth @4 :UInt32;
  myCoords @5 :List(Data); # 16 bytes each, self first, the root last
  parent @6 :Data;        # 16 bytes; our own address while we are root
  parentDisplayName @7 :Text;
  declarationSequence @8 :UInt64;
  declarationSigned @9 :Bool;
  peers @10 :List(TreePeer);
  stats @11 :List(Counter); # family "tree", the reference's stats keys as names
}

# One peer's inbound bloom filter (the reference's show_bloom peer_filters[]).
struct PeerFilter {
  peer @0 :Data;          # 16 bytes
  displayName @1 :Text;
  hasFilter @2 :Bool;     # the rest is unset when false
  setBits @3 :UInt64;
  fillRatio @4 :Float64;
  estimatedCount @5 :Float64; # negative when the filter is too full to estimate
}

# Bloom filter state (fipsctl show bloom; the reference's show_bloom).
struct BloomStatus {
  ownNodeAddr @0 :Data;   # 16 bytes
  isLeafOnly @1 :Bool;
  sequence @2 :UInt64;    # last FilterAnnounce sequence sent
  peerFilters @3 :List(PeerFilter);
  stats @4 :List(Counter); # family "bloom"
}

# One coordinate cache entry (the reference's show_cache entries[]).
struct CacheEntry {
  nodeAddr @0 :Data;      # 16 bytes
  displayName @1 :Text;
  ipv6 @2 :Data;          # 16 bytes
  coords @3 :List(Data);  # 16 bytes each, the destination first, the root last
  depth @4 :UInt32;
  ageMs @5 :UInt64;       # since the entry was created
  lastUsedMs @6 :UInt64;  # Unix ms of the last write or use
  pathMtu @7 :UInt16;     # bytes; 0 when not learned
}

# Coordinate cache (fipsctl show cache; the reference's show_cache).
struct CacheStatus {
  count @0 :UInt32;
  maxEntries @1 :UInt32;
  defaultTtlMs @2 :UInt64;
  expired @3 :UInt32;     # entries past their TTL, not purged yet
  avgAgeMs @4 :UInt64;
  entries @5 :List(CacheEntry);
}

# One end-to-end FSP session (fipsctl show sessions; the reference's
# show_sessions sessions[]).
struct SessionStatus {
  remoteAddr @0 :Data;        # 16 bytes
  npub @1 :Text;              # "" when this node does not know the key yet
  displayName @2 :Text;
  state @3 :Text;             # "initiating", "awaiting_msg3", "established"
  isInitiator @4 :Bool;
  lastActivityMs @5 :UInt64;  # Unix ms of handshake progress or Data
  createdAtMs @6 :UInt64;     # Unix ms the entry was created
  packetsSent @7 :UInt64;
  packetsRecv @8 :UInt64;
  bytesSent @9 :UInt64;
  bytesRecv @10 :UInt64;
  resendCount @11 :UInt32;    # handshake message resends (not established)
  sessionStartMs @12 :UInt64; # Unix ms the current keys started (established)
  currentKBit @13 :Bool;      # established
  coordsWarmupRemaining @14 :UInt32;
  isDraining @15 :Bool;       # previous keys kept for late frames (established)
  pathMtu @16 :UInt16;        # bytes; 0 when not learned
  rekeys @17 :UInt64;         # completed rekey cutovers: the key epoch
  rekeyInProgress @18 :Bool;
  mmp @19 :LinkMmp;           # session-layer MMP (spec 04 §3.3), established only;
                              # unset before (spinBitRole is the handshake role)
}

# FSP sessions (fipsctl show sessions).
struct SessionsStatus {
  count @0 :UInt32;           # exact
  sessions @1 :List(SessionStatus); # at most 1,000
}

# One outbound link handshake in progress (the reference's show_connections
# connections[]).
struct ConnectionStatus {
  linkId @0 :UInt32;          # our receiver index for the handshake
  direction @1 :Text;         # "outbound"
  handshakeState @2 :Text;    # "sent_msg1"
  startedAtMs @3 :UInt64;     # Unix ms msg1 was first sent
  idleMs @4 :UInt64;          # ms since msg1 was first sent
  resendCount @5 :UInt32;
  expectedPeer @6 :Text;      # npub; "" when unknown
  remoteAddr @7 :Text;        # where msg1 goes
}

# Pending link handshakes (fipsctl show connections).
struct ConnectionsStatus {
  count @0 :UInt32;
  connections @1 :List(ConnectionStatus); # at most 1,000
}

# One coordinate lookup this node originated (show_routing pending_lookups[]).
struct PendingLookupStatus {
  target @0 :Data;            # 16 bytes
  displayName @1 :Text;
  initiatedMs @2 :UInt64;     # Unix ms
  lastSentMs @3 :UInt64;      # Unix ms
  attempt @4 :UInt32;         # 1 = first request
  ageMs @5 :UInt64;
}

# Redial state of a peer without a link (show_routing retries[]).
struct RetryStatus {
  nodeAddr @0 :Data;          # 16 bytes
  displayName @1 :Text;
  retryCount @2 :UInt32;
  retryAfterMs @3 :UInt64;    # Unix ms of the next dial; 0 when none is scheduled
  autoReconnect @4 :Bool;     # false for a `fipsctl connect` peer
}

# Routing summary (fipsctl show routing; the reference's show_routing).
struct RoutingStatus {
  coordCacheEntries @0 :UInt32;
  identityCacheEntries @1 :UInt32;
  pendingLookups @2 :List(PendingLookupStatus); # at most 1,000
  pendingTunDestinations @3 :UInt32;
  pendingTunPackets @4 :UInt32;
  recentRequests @5 :UInt32;  # lookup requests in the dedup window
  retries @6 :List(RetryStatus); # at most 1,000
  counters @7 :List(Counter); # families "forwarding" and "discovery"
}

# One identity cache entry (the reference's show_identity_cache entries[]).
struct IdentityEntry {
  nodeAddr @0 :Data;          # 16 bytes
  npub @1 :Text;
  displayName @2 :Text;
  ipv6 @3 :Data;              # 16 bytes
}

# Identity cache (fipsctl show identity-cache).
struct IdentityCacheStatus {
  count @0 :UInt32;           # exact
  maxEntries @1 :UInt32;
  entries @2 :List(IdentityEntry); # at most 1,000, most recently used first
}

# Peer ACL state (fipsctl acl show; the reference's show_acl). This build
# has no peer ACL: the router fills the reference's default (open) state.
struct AclStatus {
  allowFile @0 :Text;
  denyFile @1 :Text;
  enforcementActive @2 :Bool;
  effectiveMode @3 :Text;     # "default_open", "allow_all", "deny_all", ...
  defaultDecision @4 :Text;   # "allow" or "deny"
  allowAll @5 :Bool;
  denyAll @6 :Bool;
  allowFileEntries @7 :List(Text);
  denyFileEntries @8 :List(Text);
  allowEntries @9 :List(Text);
  denyEntries @10 :List(Text);
  implemented @11 :Bool;      # false: no ACL is loaded or enforced by this build
}

# One stage of a probe (the reference's probe report stage blocks).
struct ProbeStage {
  verdict @0 :Text;           # "ok", "skipped", "failed", "running", "not_reached",
                              # "not_built" (this build cannot run the stage)
  reason @1 :Text;            # "" or a machine-stable reason ("bloom_miss", "direct_peer", ...)
  detail @2 :Text;            # "" or one line of explanation
  elapsedMs @3 :Int64 = -1;   # ms from the stage's start (the previous stage settling) to
                              # its verdict; -1: none (running, not reached, cancelled)
}

# What a probe found out so far (fipsctl probe; the reference's probe report:
# bloom -> discovery -> path -> session -> rtt). Evaluated on the data-plane
# thread when asked; the lookup it starts runs on the node's own ladder.
struct ProbeReport {
  targetNpub @0 :Text;
  targetNodeAddr @1 :Data;    # 16 bytes
  targetDisplayName @2 :Text;
  targetIpv6 @3 :Data;        # 16 bytes
  bloom @4 :ProbeStage;
  lookupIssued @5 :Bool;      # a LookupRequest went out for this probe
  discovery @6 :ProbeStage;
  discoverySource @7 :Text;   # "cache", "lookup", "direct_peer" or ""
  discoveryAttempt @8 :UInt32; # the attempt in flight or the last one; 0: none
  attemptTimeoutsSecs @9 :List(UInt32); # the node's lookup ladder
  path @10 :ProbeStage;
  coordsKnown @11 :Bool;      # false: every tree field below is unset
  ourCoords @12 :List(Data);  # 16 bytes each, self first
  theirCoords @13 :List(Data);
  sameRoot @14 :Bool;
  lca @15 :Data;              # 16 bytes
  lcaDepth @16 :UInt32;
  treeHopsUp @17 :UInt32;
  treeHopsDown @18 :UInt32;
  hasNextHop @19 :Bool;
  nextHop @20 :Data;          # 16 bytes
  nextHopDisplayName @21 :Text;
  nextHopClass @22 :Text;     # "tree_up", "direct_peer", ... (route classes)
  noHopReason @23 :Text;      # "coords_required", "path_broken" or ""
  session @24 :ProbeStage;
  sessionPreexisting @25 :Bool;
  sessionEstablished @26 :Bool;
  pathMtu @27 :UInt16;        # bytes; 0 when unknown
  rtt @28 :ProbeStage;
  coordsWereCached @29 :Bool;
  identityWasCached @30 :Bool;
  sessionOpened @31 :Bool;    # this probe opened the session (no data on it yet)
  hasSrtt @32 :Bool;          # the session's MMP has measured an SRTT
  srttMs @33 :Float64;        # ms, with hasSrtt
  lastRttMs @34 :UInt32;      # ms, the latest RTT sample, with hasSrtt
  rttSamples @35 :UInt64;     # RTT samples the session's MMP took
  rttReportsSeen @36 :UInt64; # ReceiverReports the session's MMP accepted
  warmupsSent @37 :UInt32;    # CoordsWarmups this call sent to draw a report
  rttZeroSamples @38 :UInt64; # echoes whose RTT truncated to 0 ms (sub-millisecond path)
  rttArithFailures @39 :UInt64; # echoes that wrapped or lay after our clock
  # The session the call saw (with sessionPreexisting or sessionOpened):
  sessionCreatedMs @40 :UInt64; # monotonic ms its entry was created (its identity)
  sessionInitiator @41 :Bool;   # we initiated it
  sessionProbeOnly @42 :Bool;   # a session open() made that no Data has moved on
                                # (none sent, received or queued)
  tickMs @43 :UInt32;           # the node's tick period (ms)
  lookupFanout @44 :Int32 = -1; # peers the LookupRequest this call started reached; -1: none
  # What became of the session: on a teardown call the data plane's
  # outcome ("torn_down", "gone", "replaced", "adopted_by_traffic"); on
  # ProbeJob's report the cleanup ("torn_down", "preexisting", "replaced",
  # "adopted_by_traffic"), "" when there is none to report.
  cleanup @45 :Text;
}

# What the data-plane thread publishes once per tick; read methods copy
# parts of the latest one.
struct NodeSnapshot {
  status @0 :NodeStatus;
  peers @1 :List(PeerStatus);
  links @2 :List(LinkStatus);
  transports @3 :List(TransportStatus);
  counters @4 :List(Counter);
  tree @5 :TreeStatus;
  bloom @6 :BloomStatus;
  cache @7 :CacheStatus;
  sessions @8 :SessionsStatus;
  connections @9 :ConnectionsStatus;
  routing @10 :RoutingStatus;
  identityCache @11 :IdentityCacheStatus;
  acl @12 :AclStatus;
}

# Result of a command: ok, or the reason it was refused.
struct CommandResult {
  union {
    ok @0 :Void;
    error @1 :Text;       # one line, the reference's wording where it has one
  }
  refreshed @2 :Bool;     # connect: an alternate path was tried (always false today)
  alreadyConnected @3 :Bool; # connect: the peer was already linked on that address; nothing was done
  alreadyConnecting @4 :Bool; # connect: a dial to the peer was already under way; nothing was changed
  dialCancelled @5 :Bool;  # disconnect: the peer was not up; its pending dial and retries were cancelled
  dialState @6 :Text;      # with either: "handshake", "retry_backoff" or "resolving" (its host
                           # name); connect with a host name: "resolving" (dialed once it answers)
  npub @7 :Text;           # connect, disconnect: the peer's canonical npub (what an alias, a
                           # hosts-file name or an upper-case npub named); "" when it was not resolved
}

# One metric of the stats history (fipsctl stats list; the reference's
# show_stats_list metrics[]).
struct StatsMetric {
  name @0 :Text;          # "mesh_size", "srtt_ms", ...
  unit @1 :Text;          # "nodes", "bytes/s", "fraction", ...
  scope @2 :Text;         # "node", or "peer" (a query then names the peer)
}

# What the stats history records and how long it keeps it (show_stats_list).
struct StatsList {
  metrics @0 :List(StatsMetric);
  fastRingSeconds @1 :UInt32;      # 1 s samples kept: 3600
  slowRingMinutes @2 :UInt32;      # 1 min samples kept: 1440
  peerRetentionSeconds @3 :UInt32; # an absent peer is forgotten after this
}

# A metric's samples, oldest first, newest last (the reference's Series).
# NaN is a gap (no value: not measured, peer absent, counter reset); JSON
# shows it as null.
struct StatsSeries {
  metric @0 :Text;
  unit @1 :Text;
  granularitySeconds @2 :UInt32;  # 1 or 60
  values @3 :List(Float64);
  # The window asked for (seconds) when it was longer than the ring keeps
  # and the series was cut to the ring's retention; 0 when not cut.
  windowCutFromSeconds @4 :UInt64;
}

# A peer the stats history tracks (show_stats_peers peers[]).
struct StatsPeer {
  npub @0 :Text;
  nodeAddr @1 :Data;      # 16 bytes
  displayName @2 :Text;   # configured alias, else the short npub
  isActive @3 :Bool;      # a peer at the last tick
  firstSeenSecsAgo @4 :UInt64;
  lastContactSecsAgo @5 :UInt64;
}

# Answer to statsHistory: one series, or the reference's error text
# ("unknown metric: x", "peer not tracked in stats history: name", ...).
struct StatsHistoryResult {
  union {
    series @0 :StatsSeries;
    error @1 :Text;
  }
}

# Answer to statsAllHistory (show_stats_all_history): every node metric,
# or every per-peer metric of one peer.
struct StatsAllHistoryResult {
  union {
    series @0 :List(StatsSeries);
    error @1 :Text;
  }
  granularitySeconds @2 :UInt32;
  windowSeconds @3 :UInt64;
  peer @4 :Text;          # the npub asked for, "" for the node's metrics
}

interface FipsControl {
  status @0 () -> (status :NodeStatus);
  peers @1 () -> (peers :List(PeerStatus));
  links @2 () -> (links :List(LinkStatus));
  transports @3 () -> (transports :List(TransportStatus));
  metrics @4 () -> (counters :List(Counter));
  # Dials npub at address over transport ("udp" or "udp/<instance>") once,
  # as an ephemeral peer (no redial, not written to the config).
  connect @5 (npub :Text, address :Text, transport :Text) -> (result :CommandResult);
  # Sends Disconnect(ConfigurationChange) and forgets the peer.
  disconnect @6 (npub :Text) -> (result :CommandResult);
  tree @7 () -> (tree :TreeStatus);
  bloom @8 () -> (bloom :BloomStatus);
  cache @9 () -> (cache :CacheStatus);
  # Stats history (fipsctl stats list|peers|history). Answered from the
  # history rings the data-plane thread fills once per tick, without
  # waiting for it. window: "<N>s", "<N>m" or "<N>h" (unset = "10m"; set
  # to "" is refused); granularity: "1s" or "1m" (unset = "1s"; "" is
  # refused); peer: "" for node metrics, else
  # an npub or a tracked peer's display name (its per-peer metrics).
  statsList @10 () -> (list :StatsList);
  statsPeers @11 () -> (peers :List(StatsPeer));
  statsHistory @12 (metric :Text, peer :Text, window :Text, granularity :Text)
      -> (result :StatsHistoryResult);
  statsAllHistory @13 (peer :Text, window :Text, granularity :Text)
      -> (result :StatsAllHistoryResult);
  sessions @14 () -> (sessions :SessionsStatus);
  connections @15 () -> (connections :ConnectionsStatus);
  routing @16 () -> (routing :RoutingStatus);
  identityCache @17 () -> (identityCache :IdentityCacheStatus);
  acl @18 () -> (acl :AclStatus);
  # Probes npub's reachability (the reference's probe stages). startLookup:
  # start a coordinate lookup if one is needed (the first call); later calls
  # with false only read how it went. ownedSessionMs: the sessionCreatedMs of
  # the session this probe opened (0: none yet; a call may open one, else
  # it opens none). teardown (with ownedSessionMs): removes that session if
  # it is still the probe's own and untouched by Data, evaluates nothing
  # else, and says what it did in report.cleanup.
  probe @19 (npub :Text, startLookup :Bool, ownedSessionMs :UInt64, teardown :Bool)
      -> (result :CommandResult, report :ProbeReport);
}
