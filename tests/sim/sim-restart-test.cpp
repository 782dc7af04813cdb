// SPDX-License-Identifier: MIT
// Sessions across a peer's restart (issue #25, failure 3), through MeshNode
// on virtual time: after a neighbour's graceful restart (Disconnect, then a
// new startup epoch) A's session with it is gone with the link, so A's next
// packet sets up a fresh one; after a restart two hops away (no link of A's
// goes down) A's unanswered Data re-confirms the keys with a rekey, which
// the restarted node answers as a new session. A live peer that answers is
// never re-confirmed. Test code only.
#include <cstdint>
#include <optional>
#include <vector>

#include <doctest/doctest.h>

#include "tests/sim/mesh-metrics.h"
#include "tests/sim/simulator.h"
#include "tests/sim/topology.h"
#include "tests/sim/tun-packets.h"

namespace fips::sim {
namespace {

// Sends one packet from `from` to `to` every 200 virtual ms (as a ping
// would, one way) until `tun` has received one; the virtual ms it took.
std::optional<uint64_t> sendUntilDelivered(Simulator& sim, SimNode& from, const SimNode& to,
                                           const CollectTun& tun, uint64_t timeoutMs) {
  for (uint64_t elapsed = 0; elapsed <= timeoutMs; elapsed += 200) {
    auto p = udpPacket(fipsAddr(from), fipsAddr(to), 64, static_cast<uint8_t>(elapsed / 200));
    from.core->onTunPacket(p);
    if (sim.runUntil(200, [&] { return !tun.packets.empty(); })) return elapsed;
  }
  return std::nullopt;
}

TEST_CASE("restart: a neighbour's graceful restart has A's traffic to it back within 5 s") {
  Simulator sim(line(2), LinkParams{5, 0, 0.0}, 31);
  REQUIRE(sim.runUntil(30'000, [&] { return treeConsistent(sim); }));
  SimNode& a = sim.node(0);
  SimNode& b = sim.node(1);
  CollectTun tunA, tunB;
  a.core->attachTun(&tunA);
  b.core->attachTun(&tunB);
  REQUIRE(sendUntilDelivered(sim, a, b, tunB, 5'000));
  REQUIRE(a.core->sessions().size() == 1);

  // systemctl restart: Disconnect(Shutdown), then a new process (epoch).
  sim.shutdown(1);
  sim.runFor(100);
  sim.start(1);
  CollectTun tunB2;
  b.core->attachTun(&tunB2);
  REQUIRE(sim.runUntil(5'000, [&] { return b.activePeers() == 1 && a.activePeers() == 1; }));
  const auto took = sendUntilDelivered(sim, a, b, tunB2, 5'000);
  REQUIRE(took.has_value());
  MESSAGE("A's traffic reached the restarted B after " << *took << " ms");
  // And B answers on the new session.
  auto back = udpPacket(fipsAddr(b), fipsAddr(a), 64, 1);
  tunA.packets.clear();
  b.core->onTunPacket(back);
  CHECK(sim.runUntil(2'000, [&] { return !tunA.packets.empty(); }));
}

TEST_CASE("restart: a node two hops away restarts; A's unanswered data re-establishes the keys") {
  Simulator sim(line(3), LinkParams{5, 0, 0.0}, 32);
  REQUIRE(sim.runUntil(30'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));
  SimNode& a = sim.node(0);
  SimNode& c = sim.node(2);
  CollectTun tunA, tunC;
  a.core->attachTun(&tunA);
  c.core->attachTun(&tunC);
  a.core->learnIdentity(c.publicKey);
  REQUIRE(sendUntilDelivered(sim, a, c, tunC, 20'000));

  // A live peer answers one-way Data with session reports: never re-confirmed.
  for (int i = 0; i < 100; ++i) {
    auto p = udpPacket(fipsAddr(a), fipsAddr(c), 64, static_cast<uint8_t>(i));
    a.core->onTunPacket(p);
    sim.runFor(200);
  }
  CHECK(a.core->sessions().reconfirms() == 0);
  CHECK(tunC.packets.size() >= 100);

  // C restarts gracefully: B's link to it goes and comes back, A's stays.
  const uint64_t linkDownsA = a.linkDowns;
  sim.shutdown(2);
  sim.runFor(100);
  sim.start(2);
  CollectTun tunC2;
  c.core->attachTun(&tunC2);
  REQUIRE(sim.runUntil(5'000, [&] { return c.activePeers() == 1; }));
  CHECK(a.linkDowns == linkDownsA);
  REQUIRE(a.core->sessions().size() == 1);  // A still holds the old keys
  const auto took = sendUntilDelivered(sim, a, c, tunC2, 10'000);
  REQUIRE(took.has_value());
  MESSAGE("A's traffic reached the restarted C after " << *took << " ms");
  CHECK(a.core->sessions().reconfirms() >= 1);
  // C learned A's key from the handshake and answers on the new session.
  auto back = udpPacket(fipsAddr(c), fipsAddr(a), 64, 1);
  tunA.packets.clear();
  c.core->onTunPacket(back);
  CHECK(sim.runUntil(2'000, [&] { return !tunA.packets.empty(); }));
}

}  // namespace
}  // namespace fips::sim
