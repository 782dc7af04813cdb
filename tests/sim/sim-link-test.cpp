// SPDX-License-Identifier: MIT
// The simulator itself (issue #5): topology generators, the virtual
// transport (latency, loss, flaps, partitions), and many nodes bringing FMP
// links up over it, repeatably from a seed. Test code only.
#include <chrono>

#include <doctest/doctest.h>

#include "tests/sim/simulator.h"
#include "tests/sim/topology.h"

namespace fips::sim {
namespace {

size_t edgesOf(const Topology& t) {
  return t.edges.size();
}

TEST_CASE("sim topology: generators give the expected shapes") {
  CHECK(edgesOf(line(5)) == 4);
  CHECK(line(5).hops(0)[4] == 4);
  CHECK(edgesOf(ring(6)) == 6);
  CHECK(ring(6).hops(0)[3] == 3);
  CHECK(edgesOf(grid(4, 3)) == 3 * 3 + 4 * 2);
  CHECK(grid(4, 3).hops(0)[11] == 5);
  const Topology ba = barabasiAlbert(100, 2, 7);
  CHECK(edgesOf(ba) == 3 + 97 * 2);
  CHECK(ba.connected());
  CHECK(ba.degreeMax() > 8);  // preferential attachment makes hubs
  const Topology er = erdosRenyi(100, 0.05, 3);
  CHECK(edgesOf(er) > 150);
  CHECK(edgesOf(er) < 350);
  const Topology rg = firstConnected(1, [](uint64_t s) { return randomGeometric(100, 0.18, s); });
  CHECK(rg.connected());
  CHECK(edgesOf(randomGeometric(100, 0.18, 5)) == edgesOf(randomGeometric(100, 0.18, 5)));
  Topology split{4, {{0, 1}, {2, 3}}};
  CHECK_FALSE(split.connected());
  CHECK(split.hops(0)[2] == UNREACHABLE);
}

TEST_CASE("sim net: latency, loss, flaps and partitions") {
  EventQueue events;
  VirtualNet net(events, 1);
  net.addLink(0, 1, LinkParams{20, 0, 0.0});
  net.addLink(1, 2, LinkParams{5, 0, 0.5});
  std::vector<std::pair<size_t, uint64_t>> got;
  net.setReceiver(
      [&](size_t to, size_t, std::span<const uint8_t>) { got.emplace_back(to, events.nowMs()); });
  const uint8_t byte[1] = {7};
  const uint64_t t0 = events.nowMs();
  net.send(0, 1, byte);
  net.send(0, 2, byte);  // no link
  events.runFor(100);
  REQUIRE(got.size() == 1);
  CHECK(got[0] == std::pair<size_t, uint64_t>{1, t0 + 20});
  for (int i = 0; i < 1000; ++i) net.send(1, 2, byte);
  events.runFor(100);
  CHECK(net.counters().lost > 400);
  CHECK(net.counters().lost < 600);
  got.clear();
  net.send(0, 1, byte);
  net.setLinkUp(0, 1, false);  // in flight when the link drops
  net.setLinkUp(0, 1, true);
  events.runFor(100);
  CHECK(got.empty());
  net.setPartition({0, 1, 1});
  net.send(0, 1, byte);
  events.runFor(100);
  CHECK(got.empty());
  net.setPartition({});
  net.send(0, 1, byte);
  events.runFor(100);
  CHECK(got.size() == 1);
}

// 100 nodes on a random geometric graph bring up exactly the topology's
// links; returns the trace hash after minutes of virtual time.
uint64_t hundredNodes(uint64_t seed, double& wallSecs, uint64_t& upMs) {
  const auto wall = std::chrono::steady_clock::now();
  const Topology t = firstConnected(seed, [](uint64_t s) { return randomGeometric(100, 0.18, s); });
  Simulator sim(t, LinkParams{10, 5, 0.01}, seed);
  const auto up = sim.runUntil(60'000, [&] { return sim.linksMatchNet(); });
  REQUIRE(up.has_value());
  upMs = *up;
  sim.runFor(300'000);  // heartbeats and rekeys (120 s) for five minutes
  CHECK(sim.linksMatchNet());
  for (size_t i = 0; i < sim.size(); ++i) CHECK(sim.node(i).linkDowns == 0);
  wallSecs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  return sim.net.traceHash();
}

TEST_CASE("sim: 100 nodes bring every link up, repeatably from the seed") {
  double wall1 = 0;
  double wall2 = 0;
  uint64_t up1 = 0;
  uint64_t up2 = 0;
  const uint64_t a = hundredNodes(42, wall1, up1);
  const uint64_t b = hundredNodes(42, wall2, up2);
  CHECK(a == b);
  CHECK(up1 == up2);
  double wall3 = 0;
  uint64_t up3 = 0;
  CHECK(hundredNodes(43, wall3, up3) != a);
  MESSAGE("100 nodes: all links up after " << up1 << " virtual ms; 5 virtual minutes in " << wall1
                                           << " s wall");
}

TEST_CASE("sim: a flapped link comes back, a crashed node is noticed and rejoins") {
  Simulator sim(ring(6), LinkParams{5, 2, 0.0}, 9);
  REQUIRE(sim.runUntil(30'000, [&] { return sim.linksMatchNet(); }));
  sim.net.setLinkUp(0, 1, false);
  sim.runFor(40'000);  // past the 30 s dead timeout
  CHECK(sim.node(0).activePeers() == 1);
  CHECK(sim.linksMatchNet());
  sim.net.setLinkUp(0, 1, true);
  CHECK(sim.runUntil(330'000, [&] { return sim.linksMatchNet(); }));  // redial backoff
  sim.stop(3);
  sim.runFor(40'000);
  CHECK(sim.node(2).activePeers() == 1);
  sim.start(3, true);  // new identity
  CHECK(sim.runUntil(30'000, [&] { return sim.linksMatchNet(); }));
}

}  // namespace
}  // namespace fips::sim
