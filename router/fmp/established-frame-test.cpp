// SPDX-License-Identifier: MIT
// Tests of the FMP established frame header and inner plaintext header
// (spec 02 §3): the IK vector frames are decoded, opened with the vector's
// link keys through the AAD/ciphertext spans, checked field by field, and
// rebuilt byte for byte; then malformations. Test code for fips-router codecs.
#include "router/fmp/established-frame.h"

#include "lib/crypto/chacha-poly.h"
#include "router/fmp/disconnect.h"
#include "router/fmp/fmp-test-util.h"
#include "router/fmp/inner-header.h"
#include "router/fmp/link-message.h"

namespace fips::router::fmp {
namespace {

using test::ikVectors;
using test::sameBytes;
using test::vecBytes;

struct FrameVector {
  const char* name;
  const char* key;      // k1 (initiator sends) or k2 (responder sends)
  const char* toIndex;  // the receiver's index, carried as receiver_idx
  uint64_t counter;
  uint32_t timestamp;
  LinkMessageType type;
};

constexpr FrameVector FRAMES[] = {
    {"initiator_heartbeat_counter0_ts0", "k1_initiator_to_responder", "responder_index", 0, 0,
     LinkMessageType::HEARTBEAT},
    {"responder_heartbeat_counter0_ts0", "k2_responder_to_initiator", "initiator_index", 0, 0,
     LinkMessageType::HEARTBEAT},
    {"initiator_root_tree_announce_counter1_ts1234", "k1_initiator_to_responder", "responder_index",
     1, 1234, LinkMessageType::TREE_ANNOUNCE},
    {"responder_disconnect_shutdown_counter1_ts5000", "k2_responder_to_initiator",
     "initiator_index", 1, 5000, LinkMessageType::DISCONNECT},
};

std::vector<uint8_t> keyBytes(const char* name) {
  return vecBytes(ikVectors()[name]);
}

// The link message the vector frame carries, built with our encoders.
std::vector<uint8_t> expectedMessage(const FrameVector& v) {
  switch (v.type) {
    case LinkMessageType::HEARTBEAT: {
      const auto m = encodeHeartbeat();
      return {m.begin(), m.end()};
    }
    case LinkMessageType::DISCONNECT: {
      const auto m = encodeDisconnect(DisconnectReason::SHUTDOWN);
      return {m.begin(), m.end()};
    }
    default:
      return vecBytes(ikVectors()["frames"]["initiator_root_tree_announce_plaintext_body"]);
  }
}

TEST_CASE("vector frames: decode, open, check every field, rebuild byte for byte") {
  for (const auto& v : FRAMES) {
    CAPTURE(v.name);
    const auto wire = vecBytes(ikVectors()["frames"][v.name]);
    const auto frame = decodeEstablished(wire);
    REQUIRE(frame.ok());
    const auto& h = frame->header;
    CHECK(h.flags == 0);
    CHECK_FALSE(h.keyEpoch());
    CHECK(size_t{h.payloadLen} == wire.size() - ESTABLISHED_MIN_SIZE);
    CHECK(h.receiverIdx == ikVectors()["keys"][v.toIndex].get<uint32_t>());
    CHECK(h.counter == v.counter);
    CHECK(frame->aad.data() == wire.data());
    CHECK(sameBytes(frame->sealed, std::span(wire).subspan(ESTABLISHED_HEADER_SIZE)));

    const auto key = keyBytes(v.key);
    const std::span<const uint8_t, 32> k(key.data(), 32);
    crypto::ChaChaPoly open(crypto::AeadDirection::OPEN, k);
    std::vector<uint8_t> plain(h.payloadLen);
    REQUIRE(open.open(h.counter, frame->aad, frame->sealed, plain));

    const auto inner = decodeInnerPlaintext(plain);
    REQUIRE(inner.ok());
    CHECK(inner->timestampMs == v.timestamp);
    CHECK(inner->msgType == static_cast<uint8_t>(v.type));
    const auto expected = expectedMessage(v);
    CHECK(sameBytes(inner->message, expected));
    const auto msg = decodeLinkMessage(inner->message);
    REQUIRE(msg.ok());
    CHECK(msg->type == v.type);
    if (v.type == LinkMessageType::DISCONNECT) {
      CHECK(decodeDisconnect(msg->body).value() == DisconnectReason::SHUTDOWN);
    }

    // Rebuild: inner plaintext → header (AAD) → seal → frame.
    const auto rebuiltPlain = encodeInnerPlaintext(v.timestamp, expected);
    CHECK(sameBytes(rebuiltPlain, plain));
    const auto header = makeEstablishedHeader(h.receiverIdx, v.counter, 0, rebuiltPlain.size());
    REQUIRE(header.ok());
    CHECK(header.value() == h);
    const auto aad = encodeEstablishedHeader(header.value());
    CHECK(sameBytes(aad, frame->aad));
    crypto::ChaChaPoly seal(crypto::AeadDirection::SEAL, k);
    std::vector<uint8_t> sealed(rebuiltPlain.size() + AEAD_TAG_SIZE);
    REQUIRE(seal.seal(v.counter, aad, rebuiltPlain, sealed));
    const auto rebuilt = encodeEstablished(header.value(), sealed);
    REQUIRE(rebuilt.ok());
    CHECK(sameBytes(rebuilt.value(), wire));
  }
}

TEST_CASE("established round trip keeps flags, index, counter; AAD is the 16 header bytes") {
  const std::vector<uint8_t> sealed(40 + AEAD_TAG_SIZE, 0xAA);
  const auto header =
      makeEstablishedHeader(0x12345678, 0x0102030405060708ULL, FLAG_KEY_EPOCH | FLAG_SP | 0x80, 40);
  REQUIRE(header.ok());
  const auto wire = encodeEstablished(header.value(), sealed);
  REQUIRE(wire.ok());
  REQUIRE(wire->size() == 16 + 40 + 16);
  const std::vector<uint8_t> expectHead = {0x00, 0x85, 0x28, 0x00, 0x78, 0x56, 0x34, 0x12,
                                           0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
  CHECK(sameBytes(std::span(wire.value()).first(16), expectHead));
  const auto frame = decodeEstablished(wire.value());
  REQUIRE(frame.ok());
  CHECK(frame->header == header.value());
  CHECK(frame->header.keyEpoch());
  CHECK_FALSE(frame->header.congestionExperienced());
  CHECK(frame->header.spin());
  CHECK((frame->header.flags & FLAGS_RESERVED) == 0x80);  // passed through, not judged
  CHECK(sameBytes(frame->aad, expectHead));
  CHECK(sameBytes(frame->sealed, sealed));
}

TEST_CASE("empty plaintext frame (32 bytes) is well-framed") {
  const std::vector<uint8_t> tag(AEAD_TAG_SIZE, 0x11);
  const auto wire = encodeEstablished(makeEstablishedHeader(1, 2, FLAG_CE, 0).value(), tag);
  REQUIRE(wire.ok());
  const auto frame = decodeEstablished(wire.value());
  REQUIRE(frame.ok());
  CHECK(frame->header.payloadLen == 0);
  CHECK(frame->header.congestionExperienced());
  CHECK(frame->sealed.size() == AEAD_TAG_SIZE);
}

TEST_CASE("decodeEstablished rejects every malformation with its reason") {
  const auto wire = vecBytes(ikVectors()["frames"]["initiator_root_tree_announce_counter1_ts1234"]);
  SUBCASE("short") {
    for (size_t n = 0; n < ESTABLISHED_MIN_SIZE; ++n) {
      CHECK(decodeEstablished(std::span(wire).first(n)).error() == FmpError::SHORT);
    }
  }
  SUBCASE("version and phase") {
    auto b = wire;
    b[0] = 0x10;
    CHECK(decodeEstablished(b).error() == FmpError::BAD_VERSION);
    for (uint8_t ph = 1; ph < 16; ++ph) {
      b[0] = ph;
      CHECK(decodeEstablished(b).error() == FmpError::BAD_PHASE);
    }
    CHECK(decodeEstablished(vecBytes(ikVectors()["wire_msg1"])).error() == FmpError::BAD_PHASE);
  }
  SUBCASE("payload_len disagrees with the length (truncated, extended, edited)") {
    CHECK(decodeEstablished(std::span(wire).first(wire.size() - 1)).error() ==
          FmpError::BAD_LENGTH);
    auto longer = wire;
    longer.push_back(0);
    CHECK(decodeEstablished(longer).error() == FmpError::BAD_LENGTH);
    for (const uint16_t len : std::initializer_list<uint16_t>{0, 0x87, 0x89, 0x0088 + 16, 0xFFFF}) {
      auto b = wire;
      b[2] = static_cast<uint8_t>(len);
      b[3] = static_cast<uint8_t>(len >> 8U);
      CHECK(decodeEstablished(b).error() == FmpError::BAD_LENGTH);
    }
  }
  SUBCASE("longer than payload_len can express") {
    std::vector<uint8_t> huge(ESTABLISHED_MAX_SIZE + 1, 0);
    CHECK(decodeEstablished(huge).error() == FmpError::LONG);
  }
}

TEST_CASE("established encoders refuse what the wire cannot carry") {
  CHECK(makeEstablishedHeader(0, 0, 0, UINT16_MAX).ok());
  CHECK(makeEstablishedHeader(0, 0, 0, size_t{UINT16_MAX} + 1).error() == FmpError::LONG);
  const auto h = makeEstablishedHeader(0, 0, 0, 5).value();
  const std::vector<uint8_t> wrong(5 + AEAD_TAG_SIZE + 1, 0);
  CHECK(encodeEstablished(h, wrong).error() == FmpError::BAD_LENGTH);
  CHECK(encodeEstablished(h, std::span(wrong).first(5)).error() == FmpError::BAD_LENGTH);
}

TEST_CASE("inner plaintext: timestamp LE, raw msg_type, message from the type byte") {
  const std::vector<uint8_t> message = {0x77, 0x01, 0x02};  // unknown type: still split
  const auto plain = encodeInnerPlaintext(0xA1B2C3D4, message);
  CHECK(plain == std::vector<uint8_t>{0xD4, 0xC3, 0xB2, 0xA1, 0x77, 0x01, 0x02});
  const auto inner = decodeInnerPlaintext(plain);
  REQUIRE(inner.ok());
  CHECK(inner->timestampMs == 0xA1B2C3D4);
  CHECK(inner->msgType == 0x77);
  CHECK(sameBytes(inner->message, message));
  CHECK(decodeLinkMessage(inner->message).error() == FmpError::UNKNOWN_TYPE);
  for (size_t n = 0; n < INNER_HEADER_SIZE; ++n) {
    CHECK(decodeInnerPlaintext(std::span(plain).first(n)).error() == FmpError::SHORT);
  }
  CHECK(decodeInnerPlaintext(std::span(plain).first(5))->message.size() == 1);
}

}  // namespace
}  // namespace fips::router::fmp
