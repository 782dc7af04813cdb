// SPDX-License-Identifier: MIT
// Helpers shared by the FSP unit tests: doctest with enum names, the XK vector
// file, hex and byte-span helpers, NodeAddrs and coordinates from hex. Test
// code only; inputs are the checked-in vector files.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

// Our enums have `const char* toString(E)` (found by ADL); doctest expects a
// doctest::String from toString, so wrap whatever it returns. Must precede
// the doctest include: every FSP test includes doctest through this header.
#ifdef DOCTEST_LIBRARY_INCLUDED
#error "include router/fsp/fsp-test-util.h instead of doctest/doctest.h"
#endif
#define DOCTEST_STRINGIFY(...) ::doctest::String(toString(__VA_ARGS__))
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/crypto/test-util.h"
#include "router/fsp/fsp-error.h"
#include "router/stp/coordinates.h"

namespace fips::router::fsp::test {

using crypto::test::fromHex;
using crypto::test::toHex;

// The parsed tests/vectors/noise-xk-secp256k1.json (loaded once per test binary).
inline const nlohmann::json& xkVectors() {
  static const nlohmann::json doc =
      nlohmann::json::parse(crypto::test::readVectorFile("noise-xk-secp256k1.json"));
  return doc;
}

// Hex string of a vector field.
inline std::string vecHex(const char* field) {
  return xkVectors()[field].get<std::string>();
}

// Bytes of a hex string field of the vector file.
inline std::vector<uint8_t> vecBytes(const char* field) {
  return fromHex(vecHex(field));
}

// The vector file's node_addr of "initiator" or "responder", as hex.
inline std::string vecAddrHex(const char* who) {
  return xkVectors()["keys"][who]["node_addr"].get<std::string>();
}

inline identity::NodeAddr addrFromHex(const std::string& hex) {
  return *identity::NodeAddr::fromHex(hex);
}

// A NodeAddr whose 16 bytes are all b (readable test fixtures).
inline identity::NodeAddr filledAddr(uint8_t b) {
  std::array<uint8_t, 16> bytes{};
  bytes.fill(b);
  return identity::NodeAddr(bytes);
}

// Coordinates from hex NodeAddrs, self first.
inline stp::Coordinates coordsFromHex(std::initializer_list<std::string> hexes) {
  std::vector<identity::NodeAddr> path;
  for (const auto& h : hexes) path.push_back(addrFromHex(h));
  return stp::Coordinates(std::move(path));
}

// a ‖ b.
inline std::vector<uint8_t> concat(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Whether two byte ranges hold the same bytes.
inline bool sameBytes(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace fips::router::fsp::test
