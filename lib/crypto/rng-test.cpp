// SPDX-License-Identifier: MIT
// Unit tests for the injected random sources (rng.h). Test code only.
#include "lib/crypto/rng.h"

#include <array>

#include <doctest/doctest.h>

namespace fips::crypto {
namespace {

TEST_CASE("ScriptedRng replays its script then fails") {
  ScriptedRng rng({1, 2, 3});
  std::array<uint8_t, 2> two{};
  REQUIRE(rng.fill(two));
  CHECK(two == std::array<uint8_t, 2>{1, 2});
  CHECK_FALSE(rng.fill(two));
  std::array<uint8_t, 1> one{};
  REQUIRE(rng.fill(one));
  CHECK(one[0] == 3);
}

TEST_CASE("uniformInt stays in range and covers it") {
  OpenSslRng rng;
  std::array<int, 31> seen{};
  for (int i = 0; i < 3000; ++i) {
    int64_t v = 0;
    REQUIRE(uniformInt(rng, -15, 15, v));
    REQUIRE(v >= -15);
    REQUIRE(v <= 15);
    seen[static_cast<size_t>(v + 15)]++;
  }
  for (int count : seen) CHECK(count > 0);
  int64_t v = 0;
  ScriptedRng empty;
  CHECK_FALSE(uniformInt(empty, 0, 1, v));
}

}  // namespace
}  // namespace fips::crypto
