// SPDX-License-Identifier: MIT
// Unit tests for key epochs: trial decryption order per layer, promotion only
// on authentication (never on the bare K bit), drain of previous keys, and
// reordering across a cutover. Test code only.
#include "router/noise/key-epochs.h"

#include <vector>

#include <doctest/doctest.h>

namespace fips::router::noise {
namespace {

TransportKeys keysFrom(uint8_t seed, bool swap) {
  TransportKeys k;
  k.send.mutableBytes()[0] = swap ? static_cast<uint8_t>(seed + 1) : seed;
  k.recv.mutableBytes()[0] = swap ? seed : static_cast<uint8_t>(seed + 1);
  return k;
}

// Seals one FSP-style frame (12-byte header, counter at 4) from sender.
std::vector<uint8_t> frameFrom(KeyEpochs& sender) {
  std::vector<uint8_t> f(12 + 3 + 16);
  f[1] = sender.kBit() ? 2 : 0;
  const std::vector<uint8_t> pt{1, 2, 3};
  REQUIRE(sender.sealFrame(std::span(f).first(12), 4, pt, std::span(f).subspan(12)));
  return f;
}

EpochOpenResult openAt(KeyEpochs& rx, const std::vector<uint8_t>& f, uint64_t now) {
  std::vector<uint8_t> out(3);
  const std::span<const uint8_t> s(f);
  return rx.openFrame((f[1] & 2U) != 0, s.first(12), 4, s.subspan(12), out, now);
}

TEST_CASE("the K bit alone never promotes; authentication under pending does") {
  for (RekeyLayer layer : {RekeyLayer::LINK, RekeyLayer::SESSION}) {
    KeyEpochs a(layer, keysFrom(10, false));
    KeyEpochs b(layer, keysFrom(10, true));
    b.setPending(keysFrom(20, true));
    // A forged frame: flipped K, sealed under the old keys → current, no promotion.
    auto f = frameFrom(a);
    f[1] = 2;
    auto r = openAt(b, f, 0);
    CHECK(r.status == OpenStatus::DECRYPT_FAILED);  // K is in the AAD
    CHECK_FALSE(r.promoted);
    CHECK(b.hasPending());
    // A real frame under the new keys promotes.
    a.setPending(keysFrom(20, false));
    REQUIRE(a.cutover(0));
    r = openAt(b, frameFrom(a), 0);
    CHECK(r.status == OpenStatus::OK);
    CHECK(r.slot == KeySlot::PENDING);
    CHECK(r.promoted);
    CHECK(b.kBit() == a.kBit());
    CHECK(b.hasPrevious());
  }
}

TEST_CASE("session layer tries pending even when K matches; link layer does not") {
  KeyEpochs sender(RekeyLayer::SESSION, keysFrom(30, false));
  sender.setPending(keysFrom(40, false));
  REQUIRE(sender.cutover(0));
  // Receiver whose K already equals the sender's (e.g. it flipped for another reason).
  for (RekeyLayer layer : {RekeyLayer::SESSION, RekeyLayer::LINK}) {
    KeyEpochs rx(layer, keysFrom(30, true));
    rx.setPending(keysFrom(40, true));
    REQUIRE(rx.cutover(0));  // K flipped, now current = 40
    rx.setPending(keysFrom(50, true));
    KeyEpochs old(RekeyLayer::SESSION, keysFrom(30, false));
    old.setPending(keysFrom(50, false));
    REQUIRE(old.cutover(0));
    REQUIRE(old.kBit() == rx.kBit());
    auto r = openAt(rx, frameFrom(old), 0);
    CHECK((r.status == OpenStatus::OK) == (layer == RekeyLayer::SESSION));
  }
}

TEST_CASE("reordered old-key frames after cutover decrypt until the drain window ends") {
  KeyEpochs a(RekeyLayer::LINK, keysFrom(60, false));
  KeyEpochs b(RekeyLayer::LINK, keysFrom(60, true));
  std::vector<std::vector<uint8_t>> late;
  for (int i = 0; i < 5; ++i) late.push_back(frameFrom(a));
  a.setPending(keysFrom(70, false));
  b.setPending(keysFrom(70, true));
  REQUIRE(a.cutover(1000));
  CHECK(openAt(b, frameFrom(a), 1000).promoted);
  for (int i = 0; i < 4; ++i) {
    auto r = openAt(b, late[static_cast<size_t>(i)], 1000 + DRAIN_WINDOW_MS - 1);
    CHECK(r.status == OpenStatus::OK);
    CHECK(r.slot == KeySlot::PREVIOUS);
  }
  CHECK(openAt(b, late[0], 1000).status == OpenStatus::DUPLICATE);
  b.expireDrain(1000 + DRAIN_WINDOW_MS);
  CHECK_FALSE(b.hasPrevious());
  CHECK(openAt(b, late[4], 1000 + DRAIN_WINDOW_MS).status == OpenStatus::DECRYPT_FAILED);
}

}  // namespace
}  // namespace fips::router::noise
