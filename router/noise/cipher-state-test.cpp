// SPDX-License-Identifier: MIT
// Unit tests for transport CipherStates: the IK vector's FMP frames byte for
// byte, explicit counters, replay handling through open, forged tags never
// advancing the window, and counter exhaustion. Test code only.
#include "router/noise/cipher-state.h"

#include <array>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/crypto/test-util.h"

namespace fips::router::noise {
namespace {

using crypto::test::fromHex;
using crypto::test::toHex;

crypto::Secret<32> keyFromHex(const std::string& hex) {
  const auto bytes = fromHex(hex);
  return crypto::Secret<32>(std::span<const uint8_t, 32>(bytes.data(), 32));
}

// FMP established header: 00, flags, payload_len LE, receiver_idx LE, counter slot.
std::array<uint8_t, 16> fmpHeader(uint8_t flags, uint16_t len, uint32_t receiver) {
  std::array<uint8_t, 16> h{};
  h[1] = flags;
  h[2] = static_cast<uint8_t>(len);
  h[3] = static_cast<uint8_t>(len >> 8U);
  for (size_t i = 0; i < 4; ++i) h[4 + i] = static_cast<uint8_t>(receiver >> (8U * i));
  return h;
}

std::vector<uint8_t> frame(std::span<const uint8_t> header, std::span<const uint8_t> body) {
  std::vector<uint8_t> out(header.size() + body.size());
  std::copy(header.begin(), header.end(), out.begin());
  std::copy(body.begin(), body.end(), out.begin() + static_cast<std::ptrdiff_t>(header.size()));
  return out;
}

TEST_CASE("IK vector FMP frames: heartbeat both ways and a Disconnect at counter 1") {
  const auto doc = nlohmann::json::parse(crypto::test::readVectorFile("noise-ik-secp256k1.json"));
  const auto k1 = keyFromHex(doc["k1_initiator_to_responder"].get<std::string>());
  const auto k2 = keyFromHex(doc["k2_responder_to_initiator"].get<std::string>());
  const auto& frames = doc["frames"];
  const std::vector<uint8_t> heartbeat{0, 0, 0, 0, 0x51};

  SendCipher initSend(k1);
  auto h = fmpHeader(0, 5, 0x55667788);
  std::vector<uint8_t> ct(heartbeat.size() + 16);
  REQUIRE(initSend.sealFrame(h, 8, heartbeat, ct) == 0);
  CHECK(toHex(frame(h, ct)) == frames["initiator_heartbeat_counter0_ts0"]);

  SendCipher respSend(k2);
  h = fmpHeader(0, 5, 0x11223344);
  REQUIRE(respSend.sealFrame(h, 8, heartbeat, ct) == 0);
  CHECK(toHex(frame(h, ct)) == frames["responder_heartbeat_counter0_ts0"]);

  const std::vector<uint8_t> disconnect{0x88, 0x13, 0, 0, 0x50, 0x00};
  h = fmpHeader(0, 6, 0x11223344);
  std::vector<uint8_t> ct2(disconnect.size() + 16);
  REQUIRE(respSend.sealFrame(h, 8, disconnect, ct2) == 1);
  const auto wire = frame(h, ct2);
  CHECK(toHex(wire) == frames["responder_disconnect_shutdown_counter1_ts5000"]);

  RecvCipher initRecv(k2);
  std::vector<uint8_t> pt(disconnect.size());
  const std::span<const uint8_t> w(wire);
  CHECK(initRecv.openFrame(w.first(16), 8, w.subspan(16), pt) == OpenStatus::OK);
  CHECK(pt == disconnect);
  CHECK(initRecv.openFrame(w.first(16), 8, w.subspan(16), pt) == OpenStatus::DUPLICATE);
}

TEST_CASE("forged tags and headers never advance the window") {
  const auto key = keyFromHex(std::string(64, 'a'));
  SendCipher tx(key);
  RecvCipher rx(key);
  std::array<uint8_t, 12> header{};
  std::vector<uint8_t> pt(40, 9);
  std::vector<uint8_t> ct(pt.size() + 16);
  tx.setCounterForTest(100000);
  REQUIRE(tx.sealFrame(header, 4, pt, ct) == 100000);
  std::vector<uint8_t> out(pt.size());
  auto forged = ct;
  forged[3] ^= 1;
  CHECK(rx.openFrame(header, 4, forged, out) == OpenStatus::DECRYPT_FAILED);
  auto forgedHeader = header;
  forgedHeader[4] ^= 1;  // a different counter (and AAD)
  CHECK(rx.openFrame(forgedHeader, 4, ct, out) == OpenStatus::DECRYPT_FAILED);
  CHECK(rx.window().highest() == 0);
  // Counter 0 is still fresh: the forged far-future frame did not slide the window.
  tx.setCounterForTest(0);
  std::array<uint8_t, 12> h0{};
  std::vector<uint8_t> ct0(pt.size() + 16);
  REQUIRE(tx.sealFrame(h0, 4, pt, ct0) == 0);
  CHECK(rx.openFrame(h0, 4, ct0, out) == OpenStatus::OK);
  CHECK(rx.openFrame(header, 4, ct, out) == OpenStatus::OK);
  CHECK(rx.openFrame(h0, 4, ct0, out) == OpenStatus::TOO_OLD);
}

TEST_CASE("reordered delivery within the window, too-old beyond it") {
  const auto key = keyFromHex(std::string(64, 'b'));
  SendCipher tx(key);
  RecvCipher rx(key);
  std::vector<std::vector<uint8_t>> frames;
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> f(16 + 8 + 16);
    std::vector<uint8_t> pt(8, static_cast<uint8_t>(i));
    REQUIRE(tx.sealFrame(std::span(f).first(16), 8, pt, std::span(f).subspan(16)));
    frames.push_back(std::move(f));
  }
  std::vector<uint8_t> out(8);
  auto open = [&](size_t i) {
    const std::span<const uint8_t> f(frames[i]);
    return rx.openFrame(f.first(16), 8, f.subspan(16), out);
  };
  CHECK(open(2999) == OpenStatus::OK);
  CHECK(open(2999 - 2047) == OpenStatus::OK);
  CHECK(open(2999 - 2048) == OpenStatus::TOO_OLD);
  for (size_t i = 2998; i > 2999 - 2047; --i) CHECK(open(i) == OpenStatus::OK);
  CHECK(open(2000) == OpenStatus::DUPLICATE);
}

TEST_CASE("counter exhaustion: 2^64-2 is the last counter, then seal fails") {
  const auto key = keyFromHex(std::string(64, 'c'));
  SendCipher tx(key);
  RecvCipher rx(key);
  tx.setCounterForTest(UINT64_MAX - 1);
  std::array<uint8_t, 16> header{};
  std::vector<uint8_t> pt(4, 1);
  std::vector<uint8_t> ct(20);
  REQUIRE(tx.sealFrame(header, 8, pt, ct) == UINT64_MAX - 1);
  CHECK(tx.exhausted());
  CHECK_FALSE(tx.sealFrame(header, 8, pt, ct));
  std::vector<uint8_t> out(4);
  std::array<uint8_t, 16> maxHeader{};
  for (size_t i = 8; i < 16; ++i) maxHeader[i] = 0xFF;
  CHECK(rx.openFrame(maxHeader, 8, ct, out) == OpenStatus::BAD_COUNTER);
  CHECK(rx.openFrame(header, 8, std::span(ct).first(15), std::span(out).first(0)) ==
        OpenStatus::BAD_LENGTH);
  CHECK_FALSE(tx.seal({}, std::vector<uint8_t>(MAX_TRANSPORT_PLAINTEXT + 1), ct));
}

}  // namespace
}  // namespace fips::router::noise
