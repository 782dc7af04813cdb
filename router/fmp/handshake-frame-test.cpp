// SPDX-License-Identifier: MIT
// Tests of the FMP IK msg1/msg2 frame codec (spec 02 §2): known answers from
// the IK vector packets, round trips, and every malformation. Test code for
// the fips-router codecs; inputs are the vector file and crafted bytes.
#include "router/fmp/handshake-frame.h"

#include "router/fmp/fmp-test-util.h"

namespace fips::router::fmp {
namespace {

using test::ikVectors;
using test::sameBytes;
using test::vecBytes;

uint32_t vectorIndex(const char* name) {
  return ikVectors()["keys"][name].get<uint32_t>();
}

TEST_CASE("msg1 known answer: decode every field, re-encode byte for byte") {
  const auto wire = vecBytes(ikVectors()["wire_msg1"]);
  const auto noise = vecBytes(ikVectors()["noise_msg1"]);
  REQUIRE(wire.size() == MSG1_SIZE);
  REQUIRE(noise.size() == NOISE_MSG1_SIZE);
  const auto frame = decodeMsg1(wire);
  REQUIRE(frame.ok());
  CHECK(frame->senderIdx == vectorIndex("initiator_index"));
  CHECK(frame->senderIdx == 0x11223344U);
  CHECK(frame->noiseMsg.data() == wire.data() + MSG1_NOISE_OFFSET);
  CHECK(sameBytes(frame->noiseMsg, noise));
  const auto again = encodeMsg1(frame->senderIdx, frame->noiseMsg);
  CHECK(sameBytes(again, wire));
}

TEST_CASE("msg2 known answer: decode every field, re-encode byte for byte") {
  const auto wire = vecBytes(ikVectors()["wire_msg2"]);
  const auto noise = vecBytes(ikVectors()["noise_msg2"]);
  REQUIRE(wire.size() == MSG2_SIZE);
  REQUIRE(noise.size() == NOISE_MSG2_SIZE);
  const auto frame = decodeMsg2(wire);
  REQUIRE(frame.ok());
  CHECK(frame->senderIdx == vectorIndex("responder_index"));
  CHECK(frame->receiverIdx == vectorIndex("initiator_index"));
  CHECK(sameBytes(frame->noiseMsg, noise));
  const auto again = encodeMsg2(frame->senderIdx, frame->receiverIdx, frame->noiseMsg);
  CHECK(sameBytes(again, wire));
}

TEST_CASE("msg1 and msg2 round trip with LE indices") {
  std::array<uint8_t, NOISE_MSG1_SIZE> n1{};
  std::array<uint8_t, NOISE_MSG2_SIZE> n2{};
  for (size_t i = 0; i < n1.size(); ++i) n1[i] = static_cast<uint8_t>(i * 7);
  for (size_t i = 0; i < n2.size(); ++i) n2[i] = static_cast<uint8_t>(255 - i);
  const auto m1 = encodeMsg1(0xDEADBEEF, n1);
  CHECK(m1[0] == 0x01);
  CHECK(m1[1] == 0x00);
  CHECK(m1[2] == 0x6E);
  CHECK(m1[3] == 0x00);
  CHECK(m1[4] == 0xEF);
  CHECK(m1[7] == 0xDE);
  const auto d1 = decodeMsg1(m1);
  REQUIRE(d1.ok());
  CHECK(d1->senderIdx == 0xDEADBEEF);
  CHECK(sameBytes(d1->noiseMsg, n1));

  const auto m2 = encodeMsg2(0, 0xFFFFFFFF, n2);
  CHECK(m2[0] == 0x02);
  CHECK(m2[2] == 0x41);
  const auto d2 = decodeMsg2(m2);
  REQUIRE(d2.ok());
  CHECK(d2->senderIdx == 0);
  CHECK(d2->receiverIdx == 0xFFFFFFFF);
  CHECK(sameBytes(d2->noiseMsg, n2));
}

TEST_CASE("handshake decoders reject every malformation with its reason") {
  const auto msg1 = vecBytes(ikVectors()["wire_msg1"]);
  const auto msg2 = vecBytes(ikVectors()["wire_msg2"]);

  SUBCASE("truncation at every length") {
    for (size_t n = 0; n < MSG1_SIZE; ++n) {
      CHECK(decodeMsg1(std::span(msg1).first(n)).error() == FmpError::SHORT);
    }
    for (size_t n = 0; n < MSG2_SIZE; ++n) {
      CHECK(decodeMsg2(std::span(msg2).first(n)).error() == FmpError::SHORT);
    }
  }
  SUBCASE("trailing bytes") {
    auto l1 = msg1;
    l1.push_back(0);
    CHECK(decodeMsg1(l1).error() == FmpError::LONG);
    auto l2 = msg2;
    l2.insert(l2.end(), 100, 0);
    CHECK(decodeMsg2(l2).error() == FmpError::LONG);
  }
  SUBCASE("version nibble") {
    for (uint8_t v = 1; v < 16; ++v) {
      auto b1 = msg1;
      b1[0] = static_cast<uint8_t>((v * 16U) | 1U);
      CHECK(decodeMsg1(b1).error() == FmpError::BAD_VERSION);
      auto b2 = msg2;
      b2[0] = static_cast<uint8_t>((v * 16U) | 2U);
      CHECK(decodeMsg2(b2).error() == FmpError::BAD_VERSION);
    }
  }
  SUBCASE("wrong phase, whatever the length") {
    CHECK(decodeMsg1(msg2).error() == FmpError::BAD_PHASE);
    CHECK(decodeMsg2(msg1).error() == FmpError::BAD_PHASE);
    for (uint8_t ph = 0; ph < 16; ++ph) {
      if (ph == 1) continue;
      auto b = msg1;
      b[0] = ph;
      CHECK(decodeMsg1(b).error() == FmpError::BAD_PHASE);
    }
  }
  SUBCASE("payload_len") {
    for (const uint16_t len : std::initializer_list<uint16_t>{0, 4, 65, 109, 111, 114, 0x6E01}) {
      auto b = msg1;
      b[2] = static_cast<uint8_t>(len);
      b[3] = static_cast<uint8_t>(len >> 8U);
      CHECK(decodeMsg1(b).error() == FmpError::BAD_LENGTH);
    }
    for (const uint16_t len : std::initializer_list<uint16_t>{0, 64, 66, 69, 110}) {
      auto b = msg2;
      b[2] = static_cast<uint8_t>(len);
      b[3] = static_cast<uint8_t>(len >> 8U);
      CHECK(decodeMsg2(b).error() == FmpError::BAD_LENGTH);
    }
  }
  SUBCASE("non-zero flags") {
    for (const uint8_t f : std::initializer_list<uint8_t>{0x01, 0x02, 0x04, 0x80, 0xFF}) {
      auto b1 = msg1;
      b1[1] = f;
      CHECK(decodeMsg1(b1).error() == FmpError::BAD_FLAGS);
      auto b2 = msg2;
      b2[1] = f;
      CHECK(decodeMsg2(b2).error() == FmpError::BAD_FLAGS);
    }
  }
}

}  // namespace
}  // namespace fips::router::fmp
