// SPDX-License-Identifier: MIT
// Helpers for the spanning-tree and bloom unit tests: deterministic keys and
// their NodeAddrs, and small addresses. Test code only.
#pragma once

// Our enums have `const char* toString(E)` (found by ADL); doctest expects a
// doctest::String from toString, so wrap whatever it returns (as
// router/fmp/fmp-test-util.h does). Include this header before doctest.
#ifdef DOCTEST_LIBRARY_INCLUDED
#error "include router/stp/stp-test-util.h before doctest/doctest.h"
#endif
#define DOCTEST_STRINGIFY(...) ::doctest::String(toString(__VA_ARGS__))
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/crypto/sha256.h"
#include "lib/identity/node-addr.h"

namespace fips::router::stp::test {

// A NodeAddr whose first byte is first and the rest zero.
inline identity::NodeAddr addr(uint8_t first) {
  std::array<uint8_t, identity::NodeAddr::SIZE> bytes{};
  bytes[0] = first;
  return identity::NodeAddr(bytes);
}

// A key pair from the secret 00..00 ‖ seed (seed > 0) and its NodeAddr
// (SHA-256 of the x-only key, first 16 bytes, spec 01 §3.1).
struct TestKey {
  crypto::SecretKey key;
  identity::NodeAddr addr;
};

inline TestKey testKey(const crypto::Secp256k1Context& ctx, uint8_t seed) {
  std::array<uint8_t, 32> bytes{};
  bytes[31] = seed;
  auto key = crypto::SecretKey::fromSecret(ctx, crypto::Secret<32>(bytes));
  if (!key) throw std::runtime_error("bad test secret");
  const auto digest = crypto::sha256(key->publicKey().xOnly());
  std::array<uint8_t, identity::NodeAddr::SIZE> a{};
  std::copy_n(digest.begin(), a.size(), a.begin());
  return TestKey{std::move(*key), identity::NodeAddr(a)};
}

// n test keys (seeds 1..n) sorted by NodeAddr, so index 0 is the smallest
// address (the root of any connected tree containing it).
inline std::vector<TestKey> sortedTestKeys(const crypto::Secp256k1Context& ctx, size_t n) {
  std::vector<TestKey> keys;
  for (size_t i = 1; i <= n; ++i) keys.push_back(testKey(ctx, static_cast<uint8_t>(i)));
  std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.addr < b.addr; });
  return keys;
}

}  // namespace fips::router::stp::test
