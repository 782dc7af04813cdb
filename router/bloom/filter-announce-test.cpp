// SPDX-License-Identifier: MIT
#include "router/bloom/filter-announce.h"

#include "router/stp/stp-test-util.h"  // first: sets up doctest

namespace fips::router::bloom {
namespace {

FilterAnnounce sample() {
  BloomFilter f;
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  bytes[0] = 0x42;
  f.insert(NodeAddr(bytes));
  return FilterAnnounce{.sequence = 0x1122334455667788ULL, .filter = f};
}

FilterAnnounceError errorOf(const std::variant<FilterAnnounce, FilterAnnounceError>& v) {
  REQUIRE(std::holds_alternative<FilterAnnounceError>(v));
  return std::get<FilterAnnounceError>(v);
}

}  // namespace

TEST_CASE("filter announce: layout and round trip") {
  const auto body = encodeFilterAnnounce(sample());
  REQUIRE(body.size() == 1034);  // 1035 with the type byte
  CHECK(body[0] == 0x88);        // sequence LE
  CHECK(body[7] == 0x11);
  CHECK(body[8] == 5);  // hash_count
  CHECK(body[9] == 1);  // size_class
  const auto d = decodeFilterAnnounce(body);
  REQUIRE(std::holds_alternative<FilterAnnounce>(d));
  CHECK(std::get<FilterAnnounce>(d) == sample());
}

TEST_CASE("filter announce: the sender's hash count is kept") {
  auto body = encodeFilterAnnounce(sample());
  body[8] = 3;
  const auto d = decodeFilterAnnounce(body);
  REQUIRE(std::holds_alternative<FilterAnnounce>(d));
  CHECK(std::get<FilterAnnounce>(d).filter.hashCount() == 3);
  CHECK(encodeFilterAnnounce(std::get<FilterAnnounce>(d)) == body);
}

TEST_CASE("filter announce: exact length rules and typed errors") {
  const auto good = encodeFilterAnnounce(sample());
  CHECK(errorOf(decodeFilterAnnounce(std::span(good).first(9))) == FilterAnnounceError::SHORT);
  CHECK(errorOf(decodeFilterAnnounce(std::span(good).first(10))) ==
        FilterAnnounceError::SHORT_FILTER);
  CHECK(errorOf(decodeFilterAnnounce(std::span(good).first(good.size() - 1))) ==
        FilterAnnounceError::SHORT_FILTER);
  auto longer = good;
  longer.push_back(0);
  CHECK(errorOf(decodeFilterAnnounce(longer)) == FilterAnnounceError::LONG_FILTER);
  for (const uint8_t sc : std::array<uint8_t, 5>{0, 2, 3, 4, 255}) {
    auto bad = good;
    bad[9] = sc;
    CHECK(errorOf(decodeFilterAnnounce(bad)) == FilterAnnounceError::BAD_SIZE_CLASS);
  }
  auto zeroK = good;
  zeroK[8] = 0;
  CHECK(errorOf(decodeFilterAnnounce(zeroK)) == FilterAnnounceError::BAD_HASH_COUNT);
  CHECK(std::string(toString(FilterAnnounceError::LONG_FILTER)) == "long_filter");
}

}  // namespace fips::router::bloom
