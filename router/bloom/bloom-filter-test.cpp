// SPDX-License-Identifier: MIT
#include "router/bloom/bloom-filter.h"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "lib/crypto/test-util.h"
#include "router/stp/stp-test-util.h"  // first: sets up doctest

namespace fips::router::bloom {
namespace {

NodeAddr fromHex(const std::string& hex) {
  const auto a = NodeAddr::fromHex(hex);
  REQUIRE(a.has_value());
  return *a;
}

NodeAddr numbered(uint32_t i) {
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  bytes[0] = static_cast<uint8_t>(i);
  bytes[1] = static_cast<uint8_t>(i >> 8U);
  bytes[15] = 0x5A;
  return NodeAddr(bytes);
}

}  // namespace

TEST_CASE("bloom filter: known answers from tests/vectors/bloom.json") {
  const auto doc = nlohmann::json::parse(crypto::test::readVectorFile("bloom.json"));
  REQUIRE(doc["entries"].size() >= 3);
  for (const auto& e : doc["entries"]) {
    const auto a = fromHex(e["node_addr"].get<std::string>());
    const auto want = e["bit_indices"].get<std::vector<size_t>>();
    const auto got = bitIndices(a);
    CHECK(std::vector<size_t>(got.begin(), got.end()) == want);
    BloomFilter single;
    single.insert(a);
    CHECK(single.contains(a));
    for (size_t idx : want)
      CHECK(((static_cast<unsigned>(single.bytes()[idx / 8]) >> (idx % 8)) & 1U) == 1U);
  }
  BloomFilter f;
  for (size_t i = 0; i < 3; ++i)
    f.insert(fromHex(doc["entries"][i]["node_addr"].get<std::string>()));
  CHECK(crypto::test::toHex(f.bytes()) == doc["filter_of_first_three_hex"].get<std::string>());
}

TEST_CASE("bloom filter: membership, merge and counts") {
  BloomFilter a;
  BloomFilter b;
  CHECK(a.empty());
  for (uint32_t i = 0; i < 50; ++i) a.insert(numbered(i));
  for (uint32_t i = 50; i < 100; ++i) b.insert(numbered(i));
  for (uint32_t i = 0; i < 50; ++i) CHECK(a.contains(numbered(i)));
  size_t falsePositives = 0;
  for (uint32_t i = 1000; i < 2000; ++i) falsePositives += a.contains(numbered(i)) ? 1U : 0U;
  CHECK(falsePositives < 5);  // ~1e-7 expected at 50 entries

  auto merged = a;
  merged.merge(b);
  for (uint32_t i = 0; i < 100; ++i) CHECK(merged.contains(numbered(i)));
  CHECK(merged.countOnes() <= a.countOnes() + b.countOnes());
  CHECK(merged.countOnes() >= a.countOnes());

  const auto n = merged.estimatedCount(std::numeric_limits<double>::infinity());
  REQUIRE(n.has_value());
  CHECK(*n > 90.0);
  CHECK(*n < 110.0);
  CHECK(merged.fillRatio() == doctest::Approx(static_cast<double>(merged.countOnes()) / 8192.0));
  CHECK(merged.fpr() == doctest::Approx(std::pow(merged.fillRatio(), 5.0)));
}

TEST_CASE("bloom filter: saturation and the FPR cap") {
  BloomFilter::Bytes ones{};
  ones.fill(0xFF);
  const BloomFilter full(ones, 5);
  CHECK(full.fillRatio() == 1.0);
  CHECK(full.fpr() == 1.0);
  CHECK_FALSE(full.estimatedCount(std::numeric_limits<double>::infinity()).has_value());
  CHECK(full.contains(numbered(1)));

  BloomFilter::Bytes half{};
  for (size_t i = 0; i < half.size(); i += 2) half[i] = 0xFF;
  const BloomFilter halfFull(half, 5);
  CHECK(halfFull.fpr() == doctest::Approx(1.0 / 32.0));
  CHECK_FALSE(halfFull.estimatedCount(0.01).has_value());
  CHECK(halfFull.estimatedCount(0.2).has_value());
}

TEST_CASE("bloom filter: queries use the stored hash count") {
  BloomFilter k5;
  k5.insert(numbered(7));
  const auto idx = bitIndices(numbered(7));
  BloomFilter::Bytes firstTwo{};
  for (size_t i = 0; i < 2; ++i) firstTwo[idx[i] / 8] |= static_cast<uint8_t>(1U << (idx[i] % 8));
  CHECK(BloomFilter(firstTwo, 2).contains(numbered(7)));
  CHECK_FALSE(BloomFilter(firstTwo, 5).contains(numbered(7)));
}

}  // namespace fips::router::bloom
