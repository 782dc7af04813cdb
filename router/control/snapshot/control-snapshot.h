// SPDX-License-Identifier: MIT
// What fips-router publishes for its control service once per tick: the
// NodeSnapshot of control.capnp, built from plain values the daemon
// collects (so the builder is a pure function, tested on fixed inputs).
// Runs on the data-plane thread of fips-router.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "control.capnp.h"
#include "lib/identity/node-addr.h"
#include "router/link/link-io.h"
#include "router/link/link-manager.h"
#include "router/mesh/mesh-node.h"
#include "router/transports/transport-set.h"

namespace fips::router {

// Facts fixed at startup, but for the display names.
struct NodeFacts {
  std::string npub;
  identity::NodeAddr nodeAddr;
  std::array<uint8_t, 16> ipv6{};
  std::string version;
  std::string controlSocket;
  std::string exePath;
  uint32_t pid = 0;
  bool leafOnly = false;
  std::string tunName;  // "" when the TUN is disabled
  // The nodes the host map names (a hosts-file name, else a configured
  // alias; lower-cased), the reference's first choice of display name;
  // replaced when the hosts file is reloaded.
  std::map<identity::NodeAddr, std::string> displayNames;
};

// Sessions, handshakes, lookups, caches and forwarding counters, copied
// out of MeshNode each tick (collectRouting) so the builder stays a pure
// function of plain values.
struct RoutingInput {
  bool present = false;  // false: the mesh is not running; the sections stay empty
  std::vector<std::pair<identity::NodeAddr, fsp::SessionInfo>> sessions;
  std::vector<link::HandshakeInfo> handshakes;
  std::vector<link::RetryInfo> retries;
  std::vector<lookup::PendingLookup> pendingLookups;
  routing::ForwardingCounters forwarding;
  lookup::LookupCounters lookups;
  size_t coordCacheEntries = 0;
  size_t identityCacheEntries = 0;
  size_t identityCacheCapacity = 0;
  std::vector<routing::CachedIdentity> identities;  // most recently used first, at most 1,000
  size_t pendingTunDestinations = 0;
  size_t pendingTunPackets = 0;
  size_t recentRequests = 0;
};

// Reads RoutingInput from the node (data-plane thread).
RoutingInput collectRouting(const mesh::MeshNode& mesh);

// Everything one snapshot shows.
struct SnapshotInput {
  const NodeFacts* facts = nullptr;
  std::string state;         // "running", "stopping"
  std::string tunState;      // "disabled", "configured", "active", "failed"
  uint64_t nowMonoMs = 0;    // the link engine's clock
  uint64_t nowUnixMs = 0;    // wall clock at the same instant
  uint64_t startMonoMs = 0;  // link engine clock when the router started
  std::vector<link::PeerInfo> peers;
  size_t pendingHandshakes = 0;
  std::vector<TransportInfo> transports;
  link::LinkCounters linkCounters;
  uint64_t linkMessagesIgnored = 0;
  TransportCounters transportCounters;
  // Tree, bloom and coordinate cache are read from it while the snapshot is
  // built (same thread); nullptr leaves those sections empty.
  const mesh::MeshNode* mesh = nullptr;
  RoutingInput routing;
};

// Most coordinate cache entries one snapshot lists (count stays exact).
constexpr size_t SNAPSHOT_CACHE_ENTRIES = 1000;
// Most entries any other list of the snapshot carries (sessions, connections,
// pending lookups, retries, identity cache); the counts stay exact.
constexpr size_t SNAPSHOT_LIST_ENTRIES = 1000;

// "npub1abcd...wxyz", the reference's short form for display names.
std::string shortNpub(const std::string& npub);

// "1b4788b7...", the reference's display name for an address with no key.
std::string shortAddr(const identity::NodeAddr& addr);

// The reference's forwarding counter family ("received_packets",
// "drop_no_route_bytes", "route_tree_up", ...), in its key order.
std::vector<std::pair<std::string, uint64_t>> forwardingStats(const routing::ForwardingCounters& c);

// The reference's discovery (lookup) counter family.
std::vector<std::pair<const char*, uint64_t>> discoveryStats(const lookup::LookupCounters& c);

// Fills the sections read from in.routing (control-snapshot-routing.cpp).
void fillRoutingSections(const SnapshotInput& in, schema::NodeSnapshot::Builder out);

// The name shown for addr: its display name (hosts file, configured alias),
// else the short npub if its key is known
// (self, a peer, the identity cache), else the short address.
std::string nameOf(const SnapshotInput& in, const identity::NodeAddr& addr);
// The npub of addr when this node knows its key.
std::optional<std::string> npubOf(const SnapshotInput& in, const identity::NodeAddr& addr);
// A monotonic instant of the link engine's clock as Unix ms.
uint64_t toUnixMs(const SnapshotInput& in, uint64_t monoMs);

// LinkMmp from MMP metrics: a peer link's (spec 02 §9.3) or an FSP
// session's (spec 04 §3.3).
void fillMmp(const link::LinkMetrics& m, schema::LinkMmp::Builder out);

// Fills `out` from `in` (in.facts must be set).
void buildSnapshot(const SnapshotInput& in, schema::NodeSnapshot::Builder out);

}  // namespace fips::router
