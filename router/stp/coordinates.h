// SPDX-License-Identifier: MIT
// Tree coordinates: a node's ancestry path [self, parent, ..., root] in the
// spanning tree, and the tree distance between two such paths (FIPS spec 03
// §1, §1.1). Used in fips-router by the tree, lookup, routing and session
// code. A value type; paths built from wire input are checked by the decoders
// that produce them, not here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "lib/identity/node-addr.h"

namespace fips::router::stp {

using identity::NodeAddr;

// Returned by distance() when the two paths have different roots.
constexpr size_t DISTANCE_INFINITE = std::numeric_limits<size_t>::max();

// Ancestry path, self first and root last. Never empty when produced by a
// decoder or by the tree state; a default-constructed value is empty and has
// no root (every query on it answers "no"/"infinite").
class Coordinates {
 public:
  Coordinates() = default;
  explicit Coordinates(std::vector<NodeAddr> path) : path_(std::move(path)) {}

  const std::vector<NodeAddr>& path() const { return path_; }
  bool empty() const { return path_.empty(); }
  // The node these coordinates describe (entry 0); nullopt if empty.
  std::optional<NodeAddr> self() const;
  // The tree root (last entry); nullopt if empty.
  std::optional<NodeAddr> root() const;
  // Hops to the root: size - 1 (0 for a root, 0 if empty).
  size_t depth() const { return path_.empty() ? 0 : path_.size() - 1; }
  // True if addr appears anywhere in the path (loop avoidance, cache
  // invalidation).
  bool contains(const NodeAddr& addr) const;
  // Depth of the lowest common ancestor with other: count the equal entries
  // walking both paths from the root end, minus one (saturating at 0).
  size_t lcaDepth(const Coordinates& other) const;
  // Tree hops between the two nodes via their LCA; DISTANCE_INFINITE if the
  // roots differ or either path is empty.
  size_t distance(const Coordinates& other) const;

  bool operator==(const Coordinates&) const = default;

 private:
  std::vector<NodeAddr> path_;
};

}  // namespace fips::router::stp
