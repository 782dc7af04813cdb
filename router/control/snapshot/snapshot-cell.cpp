// SPDX-License-Identifier: MIT
// SnapshotCell (see snapshot-cell.h).
#include "router/control/snapshot/snapshot-cell.h"

#include <capnp/serialize.h>

namespace fips::router::control {

void SnapshotCell::publish(capnp::MessageBuilder& snapshot) {
  auto flat = std::make_shared<const kj::Array<capnp::word>>(capnp::messageToFlatArray(snapshot));
  std::lock_guard<std::mutex> lock(mutex_);
  latest_ = std::move(flat);
}

FlatSnapshot SnapshotCell::latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latest_;
}

void SnapshotCell::publishNames(std::shared_ptr<const dns::HostMap> names) {
  std::lock_guard<std::mutex> lock(mutex_);
  names_ = std::move(names);
}

std::shared_ptr<const dns::HostMap> SnapshotCell::names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return names_;
}

}  // namespace fips::router::control
