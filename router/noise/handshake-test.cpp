// SPDX-License-Identifier: MIT
// Known-answer tests for the FIPS IK and XK handshakes against
// tests/vectors/noise-{ik,xk}-secp256k1.json: every message byte for byte, the
// h/ck chain at message boundaries, the split keys and the epochs; plus exact
// size checks and forged-message rejection. Test code only.
#include "router/noise/handshake.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/crypto/test-util.h"

namespace fips::router::noise {
namespace {

using crypto::test::fromHex;
using crypto::test::toHex;
using nlohmann::json;

crypto::SecretKey pairFromHex(const crypto::Secp256k1Context& ctx, const std::string& hex) {
  const auto bytes = fromHex(hex);
  auto pair = crypto::SecretKey::fromSecret(
      ctx, crypto::Secret<32>(std::span<const uint8_t, 32>(bytes.data(), 32)));
  REQUIRE(pair);
  return std::move(*pair);
}

Epoch epochFromHex(const std::string& hex) {
  const auto bytes = fromHex(hex);
  Epoch epoch{};
  std::copy(bytes.begin(), bytes.end(), epoch.begin());
  return epoch;
}

struct Vector {
  json doc;
  crypto::Secp256k1Context ctx;
  Secp256k1Suite suite{ctx};
  explicit Vector(const char* file) : doc(json::parse(crypto::test::readVectorFile(file))) {}
  const json& keys() const { return doc["keys"]; }
};

// traceEnds[i]: index of the initiator_trace step at which message i ends.
void runVector(const char* file, FipsPattern pattern, const std::vector<const char*>& msgNames,
               const std::vector<size_t>& traceEnds) {
  Vector v(file);
  auto initStatic = pairFromHex(v.ctx, v.keys()["initiator"]["secret_hex"]);
  auto respStatic = pairFromHex(v.ctx, v.keys()["responder"]["secret_hex"]);
  // The initiator knows the responder only by its x-only key (npub), lifted to even Y.
  auto respKnown = crypto::PublicKey::fromXOnly(respStatic.publicKey().xOnly());
  REQUIRE(respKnown);
  const auto& k = v.keys();
  crypto::ScriptedRng initRng(fromHex(k["initiator_ephemeral"].get<std::string>()));
  crypto::ScriptedRng respRng(fromHex(k["responder_ephemeral"].get<std::string>()));
  const Epoch initEpoch = epochFromHex(k["initiator_epoch"]);
  const Epoch respEpoch = epochFromHex(k["responder_epoch"]);

  auto init = Handshake::initiator(pattern, v.suite, std::move(initStatic), *respKnown, initEpoch);
  auto resp = Handshake::responder(pattern, v.suite, std::move(respStatic), respEpoch);
  const json& trace = v.doc["initiator_trace"];
  CHECK(toHex(init.symmetric().handshakeHash()) == v.doc["initiator_trace"][1]["h"]);
  CHECK(toHex(resp.symmetric().handshakeHash()) == v.doc["responder_trace"][1]["h"]);

  for (size_t i = 0; i < msgNames.size(); ++i) {
    CAPTURE(msgNames[i]);
    Handshake& writer = (i % 2 == 0) ? init : resp;
    Handshake& reader = (i % 2 == 0) ? resp : init;
    crypto::ScriptedRng& rng = (i % 2 == 0) ? initRng : respRng;
    std::vector<uint8_t> msg(writer.nextMessageSize());
    REQUIRE(writer.writeMessage(msg, rng) == HandshakeStatus::OK);
    CHECK(toHex(msg) == v.doc[msgNames[i]]);
    REQUIRE(reader.readMessage(msg) == HandshakeStatus::OK);
    CHECK(toHex(init.symmetric().handshakeHash()) == trace[traceEnds[i]]["h"]);
    CHECK(toHex(init.symmetric().chainingKey()) == trace[traceEnds[i]]["ck"]);
    CHECK(init.handshakeHash() == resp.handshakeHash());
  }
  REQUIRE(init.isComplete());
  REQUIRE(resp.isComplete());
  CHECK(toHex(init.handshakeHash()) == v.doc["handshake_hash"]);
  CHECK(toHex(resp.handshakeHash()) == v.doc["responder_handshake_hash"]);
  auto ik = init.split();
  auto rk = resp.split();
  REQUIRE(ik);
  REQUIRE(rk);
  CHECK(toHex(ik->send.bytes()) == v.doc["k1_initiator_to_responder"]);
  CHECK(toHex(ik->recv.bytes()) == v.doc["k2_responder_to_initiator"]);
  CHECK(rk->send.equals(ik->recv));
  CHECK(rk->recv.equals(ik->send));
  REQUIRE(init.remoteEpoch());
  REQUIRE(resp.remoteEpoch());
  CHECK(*init.remoteEpoch() == respEpoch);
  CHECK(*resp.remoteEpoch() == initEpoch);
  REQUIRE(resp.remoteStatic());
  CHECK(toHex(resp.remoteStatic()->compressed()) == v.keys()["initiator"]["pub_compressed"]);
}

TEST_CASE("IK vector: msg1/msg2 bytes, hash chain, split keys, epochs") {
  runVector("noise-ik-secp256k1.json", FipsPattern::IK, {"noise_msg1", "noise_msg2"}, {6, 10});
}

TEST_CASE("XK vector: msg1/msg2/msg3 bytes, hash chain, split keys, epochs") {
  runVector("noise-xk-secp256k1.json", FipsPattern::XK, {"noise_msg1", "noise_msg2", "noise_msg3"},
            {3, 6, 9});
}

TEST_CASE("message sizes are exact and wrong sizes or turns are typed errors") {
  crypto::Secp256k1Context ctx;
  Secp256k1Suite suite(ctx);
  crypto::OpenSslRng rng;
  for (FipsPattern pattern : {FipsPattern::IK, FipsPattern::XK}) {
    auto a = crypto::SecretKey::generate(ctx, rng);
    auto b = crypto::SecretKey::generate(ctx, rng);
    REQUIRE(a);
    REQUIRE(b);
    const auto bPub = b->publicKey();
    auto init = Handshake::initiator(pattern, suite, std::move(*a), bPub, Epoch{1});
    auto resp = Handshake::responder(pattern, suite, std::move(*b), Epoch{2});
    const std::vector<size_t> sizes =
        pattern == FipsPattern::IK ? std::vector<size_t>{IK_MSG1_SIZE, IK_MSG2_SIZE}
                                   : std::vector<size_t>{XK_MSG1_SIZE, XK_MSG2_SIZE, XK_MSG3_SIZE};
    std::vector<uint8_t> tooBig(200);
    CHECK(resp.writeMessage(std::span(tooBig).first(resp.nextMessageSize()), rng) ==
          HandshakeStatus::UNEXPECTED_MESSAGE);
    for (size_t i = 0; i < sizes.size(); ++i) {
      Handshake& w = (i % 2 == 0) ? init : resp;
      Handshake& r = (i % 2 == 0) ? resp : init;
      REQUIRE(w.nextMessageSize() == sizes[i]);
      std::vector<uint8_t> msg(sizes[i]);
      CHECK(w.writeMessage(std::span(msg).first(sizes[i] - 1), rng) == HandshakeStatus::BAD_LENGTH);
      REQUIRE(w.writeMessage(msg, rng) == HandshakeStatus::OK);
      CHECK(r.readMessage(std::span(msg).first(sizes[i] - 1)) == HandshakeStatus::BAD_LENGTH);
      msg.push_back(0);
      CHECK(r.readMessage(msg) == HandshakeStatus::BAD_LENGTH);
      msg.pop_back();
      CHECK(r.writeMessage(std::span(tooBig).first(r.nextMessageSize()), rng) ==
            HandshakeStatus::UNEXPECTED_MESSAGE);
      REQUIRE(r.readMessage(msg) == HandshakeStatus::OK);
    }
    CHECK(init.isComplete());
    CHECK(resp.isComplete());
    CHECK(init.nextMessageSize() == 0);
    std::vector<uint8_t> none;
    CHECK(init.readMessage(none) == HandshakeStatus::UNEXPECTED_MESSAGE);
  }
}

TEST_CASE("forged messages fail typed and leave the handshake usable") {
  crypto::Secp256k1Context ctx;
  Secp256k1Suite suite(ctx);
  crypto::OpenSslRng rng;
  for (FipsPattern pattern : {FipsPattern::IK, FipsPattern::XK}) {
    auto a = crypto::SecretKey::generate(ctx, rng);
    auto b = crypto::SecretKey::generate(ctx, rng);
    const auto bPub = b->publicKey();
    auto init = Handshake::initiator(pattern, suite, std::move(*a), bPub, Epoch{1});
    auto resp = Handshake::responder(pattern, suite, std::move(*b), Epoch{2});
    while (!init.isComplete() || !resp.isComplete()) {
      Handshake& w = init.isMyTurn() ? init : resp;
      Handshake& r = init.isMyTurn() ? resp : init;
      std::vector<uint8_t> msg(w.nextMessageSize());
      REQUIRE(w.writeMessage(msg, rng) == HandshakeStatus::OK);
      auto badPoint = msg;
      if (!(pattern == FipsPattern::XK && msg.size() == XK_MSG3_SIZE)) {
        badPoint[0] = 0x05;  // invalid compressed-point prefix
        CHECK(r.readMessage(badPoint) == HandshakeStatus::BAD_POINT);
      }
      auto badTag = msg;
      badTag.back() ^= 1;
      if (msg.size() != XK_MSG1_SIZE)
        CHECK(r.readMessage(badTag) == HandshakeStatus::DECRYPT_FAILED);
      REQUIRE(r.readMessage(msg) == HandshakeStatus::OK);
    }
    auto ik = init.split();
    auto rk = resp.split();
    REQUIRE(ik);
    REQUIRE(rk);
    CHECK(ik->send.equals(rk->recv));
  }
}

}  // namespace
}  // namespace fips::router::noise
