// SPDX-License-Identifier: MIT
// Lookups of the on_demand peers (see on-demand-lookups.h).
#include "router/daemon/on-demand-lookups.h"

namespace fips::router {

void OnDemandLookups::add(mesh::MeshNode& node, const crypto::PublicKey& key) {
  node.learnIdentity(key);
  targets_.emplace(identity::NodeAddr::fromPublicKey(key), Target{});
}

void OnDemandLookups::tick(mesh::MeshNode& node, uint64_t nowMs) {
  for (auto& [addr, target] : targets_) {
    if (target.resolved || target.inFlight || nowMs < target.notBeforeMs) continue;
    // BLOOM_MISS / NO_TREE_PEER while the filters have not reached us yet:
    // tried again next tick.
    const auto started = node.lookup(addr);
    target.inFlight =
        started == lookup::LookupStart::STARTED || started == lookup::LookupStart::ALREADY_PENDING;
  }
}

bool OnDemandLookups::resolved(const identity::NodeAddr& target) {
  const auto it = targets_.find(target);
  if (it == targets_.end()) return false;
  it->second.resolved = true;
  it->second.inFlight = false;
  return true;
}

bool OnDemandLookups::failed(const identity::NodeAddr& target, uint64_t nowMs) {
  const auto it = targets_.find(target);
  if (it == targets_.end()) return false;
  it->second.inFlight = false;
  it->second.notBeforeMs = nowMs + RETRY_MS;
  return true;
}

}  // namespace fips::router
