// SPDX-License-Identifier: MIT
// Helpers for the routing and lookup unit tests: short NodeAddrs and
// coordinates, hex. Test code only.
#pragma once

// Our enums have `const char* toString(E)` (found by ADL); doctest expects a
// doctest::String from toString, so wrap whatever it returns (as in
// router/fmp/fmp-test-util.h). Must precede the doctest include.
#ifdef DOCTEST_LIBRARY_INCLUDED
#error "include router/routing/routing-test-util.h before doctest/doctest.h"
#endif
#define DOCTEST_STRINGIFY(...) ::doctest::String(toString(__VA_ARGS__))
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "lib/crypto/test-util.h"
#include "router/stp/coordinates.h"

namespace fips::router::routing::test {

using crypto::test::fromHex;
using crypto::test::toHex;

// The NodeAddr whose 16 bytes are all b (hex "bbbb...").
inline identity::NodeAddr addr(uint8_t b) {
  std::array<uint8_t, identity::NodeAddr::SIZE> bytes{};
  bytes.fill(b);
  return identity::NodeAddr(bytes);
}

// Coordinates from addr(b) for each b, self first, root last.
inline stp::Coordinates coords(std::initializer_list<uint8_t> path) {
  std::vector<identity::NodeAddr> out;
  for (uint8_t b : path) out.push_back(addr(b));
  return stp::Coordinates(std::move(out));
}

// 32 hex digits of addr(b).
inline std::string addrHex(uint8_t b) {
  return toHex(addr(b).bytes());
}

}  // namespace fips::router::routing::test
