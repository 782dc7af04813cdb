// SPDX-License-Identifier: MIT
// Proves the generic pattern machine against an outside suite: the published
// cacophony vectors for Noise_IK_25519_ChaChaPoly_SHA256 and
// Noise_XK_25519_ChaChaPoly_SHA256, with every FIPS departure switched off
// (AD = h, prologue mixed, no pre-message normalisation, standard se, empty
// payloads tagged). Test code only.
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/crypto/chacha-poly.h"
#include "lib/crypto/test-util.h"
#include "router/noise/dh-suites.h"
#include "router/noise/handshake-state.h"

namespace fips::router::noise {
namespace {

using crypto::test::fromHex;
using crypto::test::toHex;

X25519Suite::KeyPair keyFromHex(const std::string& hex) {
  const auto bytes = fromHex(hex);
  auto pair =
      X25519Suite::fromSecret(crypto::Secret<32>(std::span<const uint8_t, 32>(bytes.data(), 32)));
  REQUIRE(pair);
  return std::move(*pair);
}

void runCacophony(const nlohmann::json& v, const NoiseProtocol& protocol) {
  X25519Suite suite;
  auto respStatic = keyFromHex(v["resp_static"].get<std::string>());
  const auto remote = fromHex(v["init_remote_static"].get<std::string>());
  auto rs = suite.parsePublic(remote);
  REQUIRE(rs);
  CHECK(*rs == respStatic.pub);
  const auto prologue = fromHex(v["init_prologue"].get<std::string>());
  HandshakeState<X25519Suite> init(suite, protocol, Role::INITIATOR,
                                   keyFromHex(v["init_static"].get<std::string>()), *rs, prologue);
  HandshakeState<X25519Suite> resp(suite, protocol, Role::RESPONDER, std::move(respStatic),
                                   std::nullopt, fromHex(v["resp_prologue"].get<std::string>()));
  crypto::ScriptedRng initRng(fromHex(v["init_ephemeral"].get<std::string>()));
  crypto::ScriptedRng respRng(fromHex(v["resp_ephemeral"].get<std::string>()));

  const auto& messages = v["messages"];
  size_t i = 0;
  for (; !init.isComplete(); ++i) {
    CAPTURE(i);
    auto& writer = (i % 2 == 0) ? init : resp;
    auto& reader = (i % 2 == 0) ? resp : init;
    auto& rng = (i % 2 == 0) ? initRng : respRng;
    const auto payload = fromHex(messages[i]["payload"].get<std::string>());
    std::vector<uint8_t> msg(writer.messageSize(payload.size()));
    REQUIRE(writer.writeMessage(payload, msg, rng) == HandshakeStatus::OK);
    CHECK(toHex(msg) == messages[i]["ciphertext"]);
    auto size = reader.payloadSize(msg.size());
    REQUIRE(size);
    std::vector<uint8_t> got(*size);
    REQUIRE(reader.readMessage(msg, got) == HandshakeStatus::OK);
    CHECK(got == payload);
  }
  REQUIRE(resp.isComplete());
  CHECK(toHex(init.handshakeHash()) == v["handshake_hash"]);
  auto ik = init.split();
  auto rk = resp.split();
  REQUIRE(ik);
  REQUIRE(rk);
  // Transport messages keep alternating; standard CipherState nonces from 0.
  crypto::ChaChaPoly initSend(crypto::AeadDirection::SEAL, ik->send.bytes());
  crypto::ChaChaPoly respSend(crypto::AeadDirection::SEAL, rk->send.bytes());
  crypto::ChaChaPoly respRecv(crypto::AeadDirection::OPEN, rk->recv.bytes());
  crypto::ChaChaPoly initRecv(crypto::AeadDirection::OPEN, ik->recv.bytes());
  uint64_t initNonce = 0;
  uint64_t respNonce = 0;
  size_t transport = 0;
  for (; i < messages.size(); ++i, ++transport) {
    CAPTURE(i);
    const bool fromInit = i % 2 == 0;
    const auto payload = fromHex(messages[i]["payload"].get<std::string>());
    std::vector<uint8_t> ct(payload.size() + 16);
    uint64_t& nonce = fromInit ? initNonce : respNonce;
    REQUIRE((fromInit ? initSend : respSend).seal(nonce, {}, payload, ct));
    CHECK(toHex(ct) == messages[i]["ciphertext"]);
    std::vector<uint8_t> back(payload.size());
    REQUIRE((fromInit ? respRecv : initRecv).open(nonce, {}, ct, back));
    CHECK(back == payload);
    ++nonce;
  }
  CHECK(transport >= 2);
}

TEST_CASE("cacophony vectors: Noise_IK/XK_25519_ChaChaPoly_SHA256 through the pattern machine") {
  const auto doc =
      nlohmann::json::parse(crypto::test::readVectorFile("noise-25519-cacophony.json"));
  size_t ran = 0;
  for (const auto& v : doc["vectors"]) {
    CAPTURE(v["protocol_name"].get<std::string>());
    if (v["protocol_name"] == STANDARD_IK_25519.name) {
      runCacophony(v, STANDARD_IK_25519);
      ++ran;
    } else if (v["protocol_name"] == STANDARD_XK_25519.name) {
      runCacophony(v, STANDARD_XK_25519);
      ++ran;
    }
  }
  CHECK(ran == 2);
}

TEST_CASE("the same machine with FIPS departures differs from standard on 25519") {
  // Switching only the AD departure changes msg1 bytes: proves the switch is live.
  X25519Suite suite;
  NoiseProtocol emptyAd = STANDARD_IK_25519;
  emptyAd.emptyHandshakeAd = true;
  crypto::OpenSslRng rng;
  auto r = suite.generate(rng);
  auto s1 = suite.generate(rng);
  REQUIRE(r);
  REQUIRE(s1);
  std::vector<uint8_t> eph(32, 7);
  crypto::ScriptedRng rngA(eph);
  crypto::ScriptedRng rngB(eph);
  HandshakeState<X25519Suite> a(suite, STANDARD_IK_25519, Role::INITIATOR, s1->clone(), r->pub);
  HandshakeState<X25519Suite> b(suite, emptyAd, Role::INITIATOR, s1->clone(), r->pub);
  std::vector<uint8_t> ma(a.messageSize(0));
  std::vector<uint8_t> mb(b.messageSize(0));
  REQUIRE(a.writeMessage({}, ma, rngA) == HandshakeStatus::OK);
  REQUIRE(b.writeMessage({}, mb, rngB) == HandshakeStatus::OK);
  CHECK(std::equal(ma.begin(), ma.begin() + 32, mb.begin()));
  CHECK(ma != mb);
}

}  // namespace
}  // namespace fips::router::noise
