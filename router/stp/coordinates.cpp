// SPDX-License-Identifier: MIT
#include "router/stp/coordinates.h"

#include <algorithm>

namespace fips::router::stp {

std::optional<NodeAddr> Coordinates::self() const {
  if (path_.empty()) return std::nullopt;
  return path_.front();
}

std::optional<NodeAddr> Coordinates::root() const {
  if (path_.empty()) return std::nullopt;
  return path_.back();
}

bool Coordinates::contains(const NodeAddr& addr) const {
  return std::find(path_.begin(), path_.end(), addr) != path_.end();
}

size_t Coordinates::lcaDepth(const Coordinates& other) const {
  auto a = path_.rbegin();
  auto b = other.path_.rbegin();
  size_t common = 0;
  while (a != path_.rend() && b != other.path_.rend() && *a == *b) {
    ++common;
    ++a;
    ++b;
  }
  return common == 0 ? 0 : common - 1;
}

size_t Coordinates::distance(const Coordinates& other) const {
  if (path_.empty() || other.path_.empty() || path_.back() != other.path_.back()) {
    return DISTANCE_INFINITE;
  }
  const size_t lca = lcaDepth(other);
  return (depth() - lca) + (other.depth() - lca);
}

}  // namespace fips::router::stp
