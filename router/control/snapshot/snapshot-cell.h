// SPDX-License-Identifier: MIT
// SnapshotCell: the latest NodeSnapshot (control.capnp) as a flat capnp
// message, written by the router's data-plane thread once per tick and read
// by the control thread; beside it the router's host map (hosts-file names
// and configured aliases), by which the control thread resolves a peer's
// name without reading the file. Readers keep what they took alive for as
// long as they need it; publishing never waits for them. Runs in fips-router.
#pragma once

#include <memory>
#include <mutex>

#include <capnp/message.h>
#include <kj/array.h>

#include "router/dns/host-map.h"

namespace fips::router::control {

// A published snapshot: immutable once published.
using FlatSnapshot = std::shared_ptr<const kj::Array<capnp::word>>;

class SnapshotCell {
 public:
  // Serializes `snapshot` (a NodeSnapshot root) and makes it the latest.
  void publish(capnp::MessageBuilder& snapshot);
  // The latest snapshot, or nullptr before the first publish.
  FlatSnapshot latest() const;
  // Makes `names` (immutable, not null) the host map names resolve by.
  void publishNames(std::shared_ptr<const dns::HostMap> names);
  // The latest host map; an empty one before the first publishNames.
  std::shared_ptr<const dns::HostMap> names() const;

 private:
  mutable std::mutex mutex_;
  FlatSnapshot latest_;
  std::shared_ptr<const dns::HostMap> names_ = std::make_shared<const dns::HostMap>();
};

}  // namespace fips::router::control
