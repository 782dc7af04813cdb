// SPDX-License-Identifier: MIT
// What fips-router publishes for its control service once per tick: the
// NodeSnapshot of control.capnp, built from plain values the daemon
// collects (so the builder is a pure function, tested on fixed inputs).
// Runs on the data-plane thread of fips-router.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "control.capnp.h"
#include "router/daemon/transport-set.h"
#include "router/identity/node-addr.h"
#include "router/link/link-io.h"
#include "router/link/link-manager.h"
#include "router/mesh/mesh-node.h"

namespace fips::router {

// Facts fixed at startup.
struct NodeFacts {
  std::string npub;
  identity::NodeAddr nodeAddr;
  std::array<uint8_t, 16> ipv6{};
  std::string version;
  std::string controlSocket;
  std::string exePath;
  uint32_t pid = 0;
  bool leafOnly = false;
  std::string tunName;                                // "" when the TUN is disabled
  std::map<identity::NodeAddr, std::string> aliases;  // peers[].alias
};

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
};

// Most coordinate cache entries one snapshot lists (count stays exact).
constexpr size_t SNAPSHOT_CACHE_ENTRIES = 1000;

// "npub1abcd...wxyz", the reference's short form for display names.
std::string shortNpub(const std::string& npub);

// "1b4788b7...", the reference's display name for an address with no key.
std::string shortAddr(const identity::NodeAddr& addr);

// Fills `out` from `in` (in.facts must be set).
void buildSnapshot(const SnapshotInput& in, schema::NodeSnapshot::Builder out);

}  // namespace fips::router
