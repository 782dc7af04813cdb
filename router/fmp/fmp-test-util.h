// SPDX-License-Identifier: MIT
// Helpers shared by the FMP unit tests: doctest with enum names, the IK vector file (full FMP
// packets and sample established frames) and byte-span conversions. Test code only; inputs are the
// checked-in vector files.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

// Our enums have `const char* toString(E)` (found by ADL); doctest expects a
// doctest::String from toString, so wrap whatever it returns. Must precede
// the doctest include: every FMP test includes doctest through this header.
#ifdef DOCTEST_LIBRARY_INCLUDED
#error "include router/fmp/fmp-test-util.h instead of doctest/doctest.h"
#endif
#define DOCTEST_STRINGIFY(...) ::doctest::String(toString(__VA_ARGS__))
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/crypto/test-util.h"

namespace fips::router::fmp::test {

// The parsed tests/vectors/noise-ik-secp256k1.json (loaded once per test binary).
inline const nlohmann::json& ikVectors() {
  static const nlohmann::json doc =
      nlohmann::json::parse(crypto::test::readVectorFile("noise-ik-secp256k1.json"));
  return doc;
}

// Bytes of a hex string field of the vector file.
inline std::vector<uint8_t> vecBytes(const nlohmann::json& field) {
  return crypto::test::fromHex(field.get<std::string>());
}

// Whether two byte ranges hold the same bytes.
inline bool sameBytes(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace fips::router::fmp::test
