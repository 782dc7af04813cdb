// SPDX-License-Identifier: MIT
// libFuzzer target: LookupState and Forwarder fed a hostile stream of
// LookupRequest / LookupResponse / SessionDatagram bodies, lookups and ticks
// from the peers of a small fixed mesh (spec 03 §5.3, §6; spec 04 §6). Input:
// records of op(1) ‖ len(1) ‖ body(len); op picks the call, the sending peer
// and how far the clock moves. Checks that every action names a peer of the
// view, that every emitted message decodes, and the dedup cap. Fuzzing only;
// input is hostile.
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/lookup/lookup-state.h"
#include "router/routing/fake-mesh-view.h"
#include "router/routing/forwarding.h"

namespace {

using namespace fips::router;
namespace crypto = fips::crypto;
using fips::identity::NodeAddr;

NodeAddr addr(uint8_t b) {
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  bytes.fill(b);
  return NodeAddr(bytes);
}

stp::Coordinates path(std::initializer_list<NodeAddr> addrs) {
  return stp::Coordinates(std::vector<NodeAddr>(addrs));
}

// Deterministic randomness for request ids and signatures.
class CountingRng final : public crypto::Rng {
 public:
  [[nodiscard]] bool fill(std::span<uint8_t> out) override {
    for (uint8_t& b : out) b = next_++;
    return true;
  }

 private:
  uint8_t next_ = 1;
};

struct World {
  crypto::Secp256k1Context ctx;
  CountingRng rng;
  crypto::SecretKey key;
  NodeAddr self;
  routing::test::FakeMeshView view;
  routing::IdentityCache ids;
  routing::CoordCache coords{{.capacity = 64, .ttlMs = 300000}};
  lookup::LookupConfig lookupConfig{.maxRecentRequests = 16};  // LookupState keeps a reference
  lookup::LookupState lookups;
  routing::Forwarder forwarder;
  std::array<NodeAddr, 3> peers{addr(0x01), addr(0x40), addr(0x60)};

  World()
      : key(makeKey(ctx)),
        self(NodeAddr::fromPublicKey(key.publicKey())),
        view(self, path({self, addr(0x01)})),
        lookups(lookupConfig, ctx, key, rng) {
    view.addPeer(addr(0x01), path({addr(0x01)}), {addr(0x90), addr(0x91), self}, true);
    view.addPeer(addr(0x40), path({addr(0x40), addr(0x01)}), {addr(0x90)}, false);
    view.addPeer(addr(0x60), path({addr(0x60), self, addr(0x01)}), {addr(0x91)}, true);
    view.peer(addr(0x40)).linkMtu = 300;
    coords.insert(addr(0x90), path({addr(0x90), addr(0x40), addr(0x01)}), 0);
  }

  static crypto::SecretKey makeKey(const crypto::Secp256k1Context& ctx) {
    crypto::ScriptedRng seed(std::vector<uint8_t>(32, 0x07));
    return *crypto::SecretKey::generate(ctx, seed);
  }

  bool isPeer(const NodeAddr& a) const { return routing::findPeer(view, a) != nullptr; }
};

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void checkActions(const World& w, const lookup::LookupActions& out) {
  for (const auto& send : out.sends) {
    check(!send.peers.empty() && !send.message.empty());
    for (const auto& p : send.peers) check(w.isPeer(p));
    const auto body = std::span(send.message).subspan(1);
    if (send.message[0] == lookup::LOOKUP_REQUEST_TYPE) {
      check(lookup::decodeLookupRequest(body).ok());
    } else {
      check(send.message[0] == lookup::LOOKUP_RESPONSE_TYPE);
      check(lookup::decodeLookupResponse(body).ok());
    }
  }
  check(w.lookups.recentCount() <= 16);
}

void checkForward(const World& w, const routing::ForwardResult& r) {
  for (const auto* send : {r.forward ? &*r.forward : nullptr, r.signal ? &*r.signal : nullptr}) {
    if (send == nullptr) continue;
    check(w.isPeer(send->peer));
    check(fips::router::fmp::decodeSessionDatagram(std::span(send->message).subspan(1)).ok());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  World w;
  uint64_t now = 0;
  lookup::LookupActions out;
  std::span<const uint8_t> in(data, size);
  while (in.size() >= 2) {
    const uint8_t op = in[0];
    const size_t len = std::min<size_t>(in[1], in.size() - 2);
    const auto body = in.subspan(2, len);
    in = in.subspan(2 + len);
    now += (op >> 4U) * 250U;
    const NodeAddr& from = w.peers[(op >> 2U) % 3];
    switch (op & 0x03U) {
      case 0:
        w.lookups.onRequest(w.view, from, body, now, out);
        break;
      case 1:
        w.lookups.onResponse(w.view, w.ids, w.coords, body, now, out);
        break;
      case 2:
        checkForward(w, w.forwarder.onSessionDatagram(w.view, w.coords, body, now));
        break;
      default:
        if (!body.empty()) w.lookups.start(w.view, addr(body[0]), now, out);
        w.lookups.tick(w.view, now, out);
        break;
    }
    checkActions(w, out);
    out = {};
  }
  return 0;
}
