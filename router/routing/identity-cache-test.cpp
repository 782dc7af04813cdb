// SPDX-License-Identifier: MIT
#include "router/routing/identity-cache.h"

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "router/routing/routing-test-util.h"

namespace fips::router::routing {
namespace {

// n distinct identity keys from a deterministic script.
std::vector<crypto::PublicKey> keys(size_t n) {
  crypto::Secp256k1Context ctx;
  std::vector<crypto::PublicKey> out;
  for (size_t i = 0; i < n; ++i) {
    std::vector<uint8_t> secret(32, 0);
    secret[31] = static_cast<uint8_t>(i + 1);
    crypto::ScriptedRng rng(secret);
    const auto pair = crypto::SecretKey::generate(ctx, rng);
    REQUIRE(pair.has_value());
    out.push_back(pair->publicKey());
  }
  return out;
}

TEST_CASE("identity cache: find by NodeAddr and by the 15-byte prefix") {
  const auto k = keys(2);
  IdentityCache cache;
  CHECK(cache.capacity() == 10000);
  cache.insert(k[0]);
  const NodeAddr a0 = NodeAddr::fromPublicKey(k[0]);
  REQUIRE(cache.find(a0) != nullptr);
  CHECK(cache.find(a0)->key == k[0]);
  CHECK(cache.contains(a0));
  REQUIRE(cache.findByPrefix(fipsPrefix(a0)) != nullptr);
  CHECK(cache.findByPrefix(fipsPrefix(a0))->addr == a0);
  CHECK(cache.find(NodeAddr::fromPublicKey(k[1])) == nullptr);

  // Same prefix, different last byte: the prefix matches, the full address does not.
  auto bytes = a0.bytes();
  bytes[15] ^= 0x01;
  CHECK(cache.find(NodeAddr(bytes)) == nullptr);
  CHECK(cache.findByPrefix(fipsPrefix(NodeAddr(bytes))) != nullptr);
}

TEST_CASE("identity cache: LRU eviction at capacity, lookups touch") {
  const auto k = keys(3);
  IdentityCache cache({.capacity = 2});
  cache.insert(k[0]);
  cache.insert(k[1]);
  REQUIRE(cache.find(NodeAddr::fromPublicKey(k[0])) != nullptr);  // k[1] is now oldest
  cache.insert(k[2]);
  CHECK(cache.size() == 2);
  CHECK(cache.contains(NodeAddr::fromPublicKey(k[0])));
  CHECK_FALSE(cache.contains(NodeAddr::fromPublicKey(k[1])));
  CHECK(cache.contains(NodeAddr::fromPublicKey(k[2])));
  cache.insert(k[2]);  // re-insert does not grow
  CHECK(cache.size() == 2);
}

}  // namespace
}  // namespace fips::router::routing
