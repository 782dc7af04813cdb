// SPDX-License-Identifier: MIT
// Known-answer and malformation tests of the FSP prefix, coordinate field,
// handshake messages and encrypted header (FIPS spec 04 §1-§3). Expected
// bytes are assembled from the spec tables around the XK vector messages.
// Test code for the fips-router codecs.
#include <string>

#include "router/fsp/fsp-test-util.h"
// fsp-test-util.h must come first (it sets up doctest).
#include "router/fsp/encrypted-message.h"
#include "router/fsp/handshake-messages.h"
#include "router/routing/coords-wire.h"

namespace fips::router::fsp {
namespace {

using namespace test;

const std::string ROOT = "00112233445566778899aabbccddeeff";

std::string initiatorHex() {
  return vecAddrHex("initiator");
}
std::string responderHex() {
  return vecAddrHex("responder");
}

// Initiator at depth 1 under ROOT, responder at depth 1 under ROOT.
Coordinates initiatorCoords() {
  return coordsFromHex({initiatorHex(), ROOT});
}
Coordinates responderCoords() {
  return coordsFromHex({responderHex(), ROOT});
}

template <size_t N>
std::array<uint8_t, N> vecArray(const char* field) {
  const auto bytes = vecBytes(field);
  REQUIRE(bytes.size() == N);
  std::array<uint8_t, N> out{};
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

// The spec 04 §2.1 SessionSetup bytes: 01 00 LL LL ‖ flags ‖ src ‖ dest ‖ 21 00 ‖ msg1.
std::string expectedSetupHex() {
  // body = 1 + (2 + 32) + (2 + 32) + 2 + 33 = 104 = 0x68
  return "01006800" + std::string("00") + "0200" + initiatorHex() + ROOT + "0200" + responderHex() +
         ROOT + "2100" + vecHex("noise_msg1");
}

TEST_CASE("prefix: phases, flags rule, payload_len") {
  const auto p = decodeFspPrefix(fromHex("0107ffff"));
  CHECK(p.error() == FspError::BAD_FLAGS);
  const auto est = decodeFspPrefix(fromHex("00fb3412"));
  REQUIRE(est.ok());
  CHECK(est->phase == FspPhase::ESTABLISHED);
  CHECK(est->flags == 0xfb);
  CHECK(est->coordsPresent());
  CHECK(est->keyEpoch());
  CHECK_FALSE(est->unencrypted());
  CHECK(est->payloadLen == 0x1234);
  CHECK(decodeFspPrefix(fromHex("000000")).error() == FspError::SHORT);
  CHECK(decodeFspPrefix(fromHex("10000000")).error() == FspError::BAD_VERSION);
  CHECK(decodeFspPrefix(fromHex("04000000")).error() == FspError::BAD_PHASE);
  for (const char* hex : {"01010000", "02020000", "03800000"}) {
    CHECK(decodeFspPrefix(fromHex(hex)).error() == FspError::BAD_FLAGS);
  }
  const auto enc = encodeFspPrefix({.phase = FspPhase::MSG3, .flags = 0, .payloadLen = 76});
  CHECK(toHex(enc) == "03004c00");
}

TEST_CASE("coordinate field: required and optional, truncation") {
  const auto coords = initiatorCoords();
  std::vector<uint8_t> out;
  routing::encodeCoords(coords, out);
  CHECK(toHex(out) == "0200" + initiatorHex() + ROOT);
  CHECK(coordFieldSize(coords) == out.size());
  const auto back = decodeCoordField(out, true);
  REQUIRE(back.ok());
  CHECK(back->coords == coords);
  CHECK(back->consumed == 34);
  out.pop_back();
  CHECK(decodeCoordField(out, true).error() == FspError::SHORT);
  CHECK(decodeCoordField(fromHex("00"), false).error() == FspError::SHORT);
  CHECK(decodeCoordField(fromHex("0000"), true).error() == FspError::BAD_COUNT);
  const auto absent = decodeCoordField(fromHex("0000ff"), false);
  REQUIRE(absent.ok());
  CHECK(absent->coords.empty());
  CHECK(absent->consumed == 2);
  CHECK(decodeCoordField(fromHex("ffff"), false).error() == FspError::SHORT);
}

TEST_CASE("SessionSetup: known answer with the XK msg1") {
  SessionSetup setup;
  setup.srcCoords = initiatorCoords();
  setup.destCoords = responderCoords();
  setup.msg1 = vecArray<XK_MSG1_LEN>("noise_msg1");
  const auto bytes = encodeSessionSetup(setup);
  CHECK(toHex(bytes) == expectedSetupHex());
  const auto back = decodeSessionSetup(bytes);
  REQUIRE(back.ok());
  CHECK(back->sessionFlags == 0);
  CHECK(back->srcCoords == setup.srcCoords);
  CHECK(back->destCoords == setup.destCoords);
  CHECK(back->msg1 == setup.msg1);
}

TEST_CASE("SessionSetup: every malformation") {
  const auto good = fromHex(expectedSetupHex());
  auto mutate = [&](size_t off, uint8_t v) {
    auto b = good;
    b[off] = v;
    return b;
  };
  CHECK(decodeSessionSetup(mutate(1, 0x01)).error() == FspError::BAD_FLAGS);
  CHECK(decodeSessionSetup(mutate(0, 0x02)).error() == FspError::BAD_PHASE);
  CHECK(decodeSessionSetup(mutate(0, 0x11)).error() == FspError::BAD_VERSION);
  CHECK(decodeSessionSetup(mutate(2, 0x67)).error() == FspError::BAD_LENGTH);
  // Session flags are carried, not checked.
  CHECK(decodeSessionSetup(mutate(4, 0x03))->sessionFlags == 0x03);
  // src count 0 (then the rest no longer lines up, but the count is seen first).
  auto zeroSrc = mutate(5, 0x00);
  zeroSrc[6] = 0x00;
  CHECK(decodeSessionSetup(zeroSrc).error() == FspError::BAD_COUNT);
  // dest count 0: 01 00 | flags | src 34 | dest count at 4 + 1 + 34 = 39.
  auto zeroDest = mutate(39, 0x00);
  CHECK(decodeSessionSetup(zeroDest).error() == FspError::BAD_COUNT);
  // handshake_len at 39 + 34 = 73.
  CHECK(decodeSessionSetup(mutate(73, 0x20)).error() == FspError::BAD_HANDSHAKE_LEN);
  // Truncated: prefix fixed up so only the body is short.
  for (size_t cut : {4U, 5U, 6U, 38U, 40U, 73U, 74U, 75U, 107U}) {
    std::vector<uint8_t> b(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
    if (b.size() >= 4) {
      b[2] = static_cast<uint8_t>(b.size() - 4);
      b[3] = 0;
    }
    CHECK(decodeSessionSetup(b).error() == FspError::SHORT);
  }
  auto longer = good;
  longer.push_back(0);
  longer[2] = static_cast<uint8_t>(longer.size() - 4);
  CHECK(decodeSessionSetup(longer).error() == FspError::LONG);
}

TEST_CASE("SessionAck: known answer with the XK msg2") {
  SessionAck ack;
  ack.srcCoords = responderCoords();
  ack.destCoords = initiatorCoords();
  ack.msg2 = vecArray<XK_MSG2_LEN>("noise_msg2");
  const auto bytes = encodeSessionAck(ack);
  // body = 1 + 34 + 34 + 2 + 57 = 128 = 0x80
  const std::string expected = "02008000" + std::string("00") + "0200" + responderHex() + ROOT +
                               "0200" + initiatorHex() + ROOT + "3900" + vecHex("noise_msg2");
  CHECK(toHex(bytes) == expected);
  const auto back = decodeSessionAck(bytes);
  REQUIRE(back.ok());
  CHECK(back->srcCoords == ack.srcCoords);
  CHECK(back->destCoords == ack.destCoords);
  CHECK(back->msg2 == ack.msg2);
  CHECK(decodeSessionSetup(bytes).error() == FspError::BAD_PHASE);
  auto badLen = bytes;
  badLen[73] = 0x21;
  CHECK(decodeSessionAck(badLen).error() == FspError::BAD_HANDSHAKE_LEN);
}

TEST_CASE("SessionMsg3: known answer and malformations") {
  SessionMsg3 m;
  m.msg3 = vecArray<XK_MSG3_LEN>("noise_msg3");
  const auto bytes = encodeSessionMsg3(m);
  CHECK(toHex(bytes) == "03004c00" + std::string("00") + "4900" + vecHex("noise_msg3"));
  const auto back = decodeSessionMsg3(bytes);
  REQUIRE(back.ok());
  CHECK(back->msg3 == m.msg3);
  auto badHs = std::vector<uint8_t>(bytes.begin(), bytes.end());
  badHs[5] = 0x48;
  CHECK(decodeSessionMsg3(badHs).error() == FspError::BAD_HANDSHAKE_LEN);
  auto badLen = std::vector<uint8_t>(bytes.begin(), bytes.end());
  badLen[2] = 0x4b;
  CHECK(decodeSessionMsg3(badLen).error() == FspError::BAD_LENGTH);
  std::vector<uint8_t> shortMsg(bytes.begin(), bytes.end() - 1);
  shortMsg[2] = 0x4b;
  CHECK(decodeSessionMsg3(shortMsg).error() == FspError::SHORT);
  auto longMsg = std::vector<uint8_t>(bytes.begin(), bytes.end());
  longMsg.push_back(0);
  longMsg[2] = 0x4d;
  CHECK(decodeSessionMsg3(longMsg).error() == FspError::LONG);
  auto flagged = std::vector<uint8_t>(bytes.begin(), bytes.end());
  flagged[1] = FLAG_K;
  CHECK(decodeSessionMsg3(flagged).error() == FspError::BAD_FLAGS);
}

TEST_CASE("encrypted message: header as AAD, no coordinates") {
  // Inner plaintext of 9 bytes → ciphertext 25 bytes (the vector's sample is 9 + 16).
  const auto ct = vecBytes("sample_transport_ct_counter0_no_ad_hello_fsp");
  const auto header = encodeFspHeader(FLAG_K, 9, 0x0102030405060708ULL);
  CHECK(toHex(header) == "000209000807060504030201");
  std::vector<uint8_t> msg(header.begin(), header.end());
  msg.insert(msg.end(), ct.begin(), ct.end());
  const auto m = decodeEncryptedMessage(msg);
  REQUIRE(m.ok());
  CHECK(m->keyEpoch());
  CHECK_FALSE(m->coordsPresent());
  CHECK(m->counter == 0x0102030405060708ULL);
  CHECK(m->payloadLen == 9);
  CHECK(sameBytes(m->header, header));
  CHECK(sameBytes(m->ciphertext, ct));
  msg.push_back(0);
  CHECK(decodeEncryptedMessage(msg).error() == FspError::BAD_LENGTH);
}

TEST_CASE("encrypted message: CP coordinates, count 0 is absent") {
  const auto header = encodeFspHeader(FLAG_CP, 0, 7);
  std::vector<uint8_t> msg(header.begin(), header.end());
  routing::encodeCoords(initiatorCoords(), msg);
  msg.push_back(0);
  msg.push_back(0);
  msg.resize(msg.size() + FSP_TAG_SIZE, 0xAB);
  CHECK(toHex(std::span(msg).subspan(12, 36)) == "0200" + initiatorHex() + ROOT + "0000");
  const auto m = decodeEncryptedMessage(msg);
  REQUIRE(m.ok());
  CHECK(m->srcCoords == initiatorCoords());
  CHECK(m->destCoords.empty());
  CHECK(m->ciphertext.size() == FSP_TAG_SIZE);
  // The header span is the first 12 bytes only, coordinates are not AAD.
  CHECK(sameBytes(m->header, header));
}

TEST_CASE("encrypted message: malformations") {
  const auto header = encodeFspHeader(0, 0, 0);
  std::vector<uint8_t> msg(header.begin(), header.end());
  msg.resize(FSP_ENCRYPTED_MIN_SIZE);
  REQUIRE(decodeEncryptedMessage(msg).ok());
  CHECK(decodeEncryptedMessage(std::span(msg).first(27)).error() == FspError::SHORT);
  auto u = msg;
  u[1] = FLAG_U;
  CHECK(decodeEncryptedMessage(u).error() == FspError::BAD_FLAGS);
  auto phase = msg;
  phase[0] = 0x01;
  CHECK(decodeEncryptedMessage(phase).error() == FspError::BAD_PHASE);
  auto cp = msg;
  cp[1] = FLAG_CP;
  cp[12] = 0x05;  // 5 src entries do not fit in the 16 bytes after the header
  CHECK(decodeEncryptedMessage(cp).error() == FspError::SHORT);
  auto len = msg;
  len[2] = 1;
  CHECK(decodeEncryptedMessage(len).error() == FspError::BAD_LENGTH);
  auto reserved = msg;
  reserved[1] = 0xF8;  // reserved bits ignored in phase 0
  CHECK(decodeEncryptedMessage(reserved).ok());
}

}  // namespace
}  // namespace fips::router::fsp
