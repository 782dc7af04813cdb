// SPDX-License-Identifier: MIT
// Tests of the FMP common prefix and packet classification (spec 02 §1,
// spec 00 pitfall 9) against the IK vector packets and malformed variants.
// Test code for the fips-router codecs; inputs are crafted here.
#include "router/fmp/fmp-prefix.h"

#include "router/fmp/fmp-test-util.h"

namespace fips::router::fmp {
namespace {

using test::ikVectors;
using test::vecBytes;

TEST_CASE("decodePrefix reads the vector msg1 and msg2 prefixes") {
  const auto msg1 = vecBytes(ikVectors()["wire_msg1"]);
  const auto p1 = decodePrefix(msg1);
  REQUIRE(p1.ok());
  CHECK(p1.value() == CommonPrefix{.version = 0, .phase = 1, .flags = 0, .payloadLen = 110});
  const auto msg2 = vecBytes(ikVectors()["wire_msg2"]);
  const auto p2 = decodePrefix(msg2);
  REQUIRE(p2.ok());
  CHECK(p2.value() == CommonPrefix{.version = 0, .phase = 2, .flags = 0, .payloadLen = 65});
}

TEST_CASE("decodePrefix is SHORT below 4 bytes and raw above") {
  const std::vector<uint8_t> bytes = {0xF3, 0xAA, 0x34, 0x12};
  for (size_t n = 0; n < PREFIX_SIZE; ++n) {
    CHECK(decodePrefix(std::span(bytes).first(n)).error() == FmpError::SHORT);
  }
  const auto p = decodePrefix(bytes);
  REQUIRE(p.ok());
  CHECK(p->version == 0xF);
  CHECK(p->phase == 3);
  CHECK(p->flags == 0xAA);
  CHECK(p->payloadLen == 0x1234);
}

TEST_CASE("encodePrefix round-trips and is little-endian") {
  const CommonPrefix p{.version = 0, .phase = 0, .flags = FLAG_SP, .payloadLen = 0x0120};
  const auto bytes = encodePrefix(p);
  CHECK(bytes == std::array<uint8_t, 4>{0x00, 0x04, 0x20, 0x01});
  CHECK(decodePrefix(bytes).value() == p);
}

TEST_CASE("expectedPayloadLen follows the per-phase rule") {
  CHECK(expectedPayloadLen(1, 114) == 110);
  CHECK(expectedPayloadLen(1, 7) == 110);
  CHECK(expectedPayloadLen(2, 69) == 65);
  CHECK(expectedPayloadLen(0, 32) == 0);
  CHECK(expectedPayloadLen(0, 37) == 5);
  CHECK(expectedPayloadLen(0, ESTABLISHED_MAX_SIZE) == UINT16_MAX);
  CHECK_FALSE(expectedPayloadLen(0, 31).has_value());
  CHECK_FALSE(expectedPayloadLen(0, ESTABLISHED_MAX_SIZE + 1).has_value());
  for (uint8_t phase = 3; phase < 16; ++phase)
    CHECK_FALSE(expectedPayloadLen(phase, 114).has_value());
}

TEST_CASE("classifyPacket accepts every vector packet") {
  CHECK(classifyPacket(vecBytes(ikVectors()["wire_msg1"])).value() == FmpPhase::MSG1);
  CHECK(classifyPacket(vecBytes(ikVectors()["wire_msg2"])).value() == FmpPhase::MSG2);
  for (const char* name : {"initiator_heartbeat_counter0_ts0", "responder_heartbeat_counter0_ts0",
                           "initiator_root_tree_announce_counter1_ts1234",
                           "responder_disconnect_shutdown_counter1_ts5000"}) {
    CAPTURE(name);
    CHECK(classifyPacket(vecBytes(ikVectors()["frames"][name])).value() == FmpPhase::ESTABLISHED);
  }
}

TEST_CASE("classifyPacket rejects each malformation with its reason") {
  const auto msg1 = vecBytes(ikVectors()["wire_msg1"]);
  const auto msg2 = vecBytes(ikVectors()["wire_msg2"]);
  const auto frame = vecBytes(ikVectors()["frames"]["initiator_heartbeat_counter0_ts0"]);

  SUBCASE("short prefix") {
    for (size_t n = 0; n < PREFIX_SIZE; ++n) {
      CHECK(classifyPacket(std::span(msg1).first(n)).error() == FmpError::SHORT);
    }
  }
  SUBCASE("version nibble") {
    for (uint8_t v = 1; v < 16; ++v) {
      auto bad = frame;
      bad[0] = static_cast<uint8_t>(v * 16U);
      CHECK(classifyPacket(bad).error() == FmpError::BAD_VERSION);
    }
  }
  SUBCASE("unknown phase") {
    for (uint8_t ph = 3; ph < 16; ++ph) {
      auto bad = msg1;
      bad[0] = ph;
      CHECK(classifyPacket(bad).error() == FmpError::BAD_PHASE);
    }
  }
  SUBCASE("handshake payload_len, checked before the total size") {
    for (const uint16_t len : std::initializer_list<uint16_t>{0, 109, 111, 65, 0xFFFF}) {
      auto bad = msg1;
      bad[2] = static_cast<uint8_t>(len);
      bad[3] = static_cast<uint8_t>(len >> 8U);
      CHECK(classifyPacket(bad).error() == FmpError::BAD_LENGTH);
    }
    auto bad2 = msg2;
    bad2[2] = 110;
    CHECK(classifyPacket(bad2).error() == FmpError::BAD_LENGTH);
  }
  SUBCASE("handshake total size") {
    CHECK(classifyPacket(std::span(msg1).first(113)).error() == FmpError::SHORT);
    CHECK(classifyPacket(std::span(msg1).first(4)).error() == FmpError::SHORT);
    auto longer = msg1;
    longer.push_back(0);
    CHECK(classifyPacket(longer).error() == FmpError::LONG);
    CHECK(classifyPacket(std::span(msg2).first(68)).error() == FmpError::SHORT);
    auto longer2 = msg2;
    longer2.push_back(0);
    CHECK(classifyPacket(longer2).error() == FmpError::LONG);
  }
  SUBCASE("established size and payload_len") {
    for (size_t n = PREFIX_SIZE; n < ESTABLISHED_MIN_SIZE; ++n) {
      CHECK(classifyPacket(std::span(frame).first(n)).error() == FmpError::SHORT);
    }
    auto longer = frame;
    longer.push_back(0);  // payload_len still says 5
    CHECK(classifyPacket(longer).error() == FmpError::BAD_LENGTH);
    auto bad = frame;
    bad[2] = 4;
    CHECK(classifyPacket(bad).error() == FmpError::BAD_LENGTH);
    std::vector<uint8_t> huge(ESTABLISHED_MAX_SIZE + 1, 0);
    CHECK(classifyPacket(huge).error() == FmpError::LONG);
    std::vector<uint8_t> max(ESTABLISHED_MAX_SIZE, 0);
    max[2] = 0xFF;
    max[3] = 0xFF;
    CHECK(classifyPacket(max).value() == FmpPhase::ESTABLISHED);
  }
  SUBCASE("flags are not judged by the gate") {
    auto flagged = msg1;
    flagged[1] = 0x01;
    CHECK(classifyPacket(flagged).value() == FmpPhase::MSG1);
  }
}

TEST_CASE("every FmpError has a distinct name") {
  std::vector<std::string> names;
  for (size_t i = 0; i < FMP_ERROR_COUNT; ++i) {
    names.emplace_back(toString(static_cast<FmpError>(i)));
    CHECK(names.back() != "unknown");
  }
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
  CHECK(std::string(toString(FmpError::BAD_LENGTH)) == "bad_length");
}

}  // namespace
}  // namespace fips::router::fmp
