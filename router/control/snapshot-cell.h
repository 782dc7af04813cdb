// SPDX-License-Identifier: MIT
// SnapshotCell: the latest NodeSnapshot (control.capnp) as a flat capnp
// message, written by the router's data-plane thread once per tick and read
// by the control thread. Readers keep the snapshot they took alive for as
// long as they need it; publishing never waits for them. Runs in fips-router.
#pragma once

#include <memory>
#include <mutex>

#include <capnp/message.h>
#include <kj/array.h>

namespace fips::router::control {

// A published snapshot: immutable once published.
using FlatSnapshot = std::shared_ptr<const kj::Array<capnp::word>>;

class SnapshotCell {
 public:
  // Serializes `snapshot` (a NodeSnapshot root) and makes it the latest.
  void publish(capnp::MessageBuilder& snapshot);
  // The latest snapshot, or nullptr before the first publish.
  FlatSnapshot latest() const;

 private:
  mutable std::mutex mutex_;
  FlatSnapshot latest_;
};

}  // namespace fips::router::control
