// SPDX-License-Identifier: MIT
// Link engine simulation of an outage between two nodes that dial each
// other (issue #22): the underlay drops everything both ways for longer
// than link_dead_timeout, both links die, both redial at once, and when
// the underlay comes back both sides must end on one shared session
// (no half-open link: one side up, the other with no peer). Virtual time,
// many seeds, tick phases and delays. Test code only.
#include <doctest/doctest.h>

#include "router/link/link-test-net.h"

namespace fips::router::link::test {
namespace {

struct OutageCase {
  uint64_t seed;
  uint64_t outageMs;
};

// Runs one outage; returns what went wrong ("" when both sides agree on
// one working session within settleMs of the underlay's return).
std::string runOutage(const OutageCase& c, uint64_t settleMs) {
  TestNet net(c.seed);
  net.maxDelayMs = c.seed % 4 == 0 ? 0 : c.seed % 4 * 15;
  TestNode& a = net.add();
  TestNode& b = net.add();
  // Upper layers send at once on link up (the daemon's TreeAnnounce).
  a.announceOnUp = true;
  b.announceOnUp = true;
  a.nextTickMs += (net.gen() % 100) * 10;  // the two routers tick out of phase
  b.nextTickMs += (net.gen() % 100) * 10;
  net.connect(a, b);
  net.connect(b, a);
  net.run(5000);
  if (!a.hasPeer(b) || !b.hasPeer(a)) return "no link before the outage";
  net.run(net.gen() % 200'000);  // rekeys (every ~120 s) may be in flight
  bool cut = true;
  net.rule = [&cut](const Packet&) { return cut ? Verdict::DROP : Verdict::DELIVER; };
  net.run(c.outageMs);
  cut = false;
  net.run(settleMs);
  const auto pa = a.peer(b);
  const auto pb = b.peer(a);
  if (!pa && !pb) return "neither side up";
  if (!pa || !pb) return pa ? "half-open: only a up" : "half-open: only b up";
  if (pa->ourIndex != pb->theirIndex || pa->theirIndex != pb->ourIndex) {
    return "both up on different sessions";
  }
  a.received.clear();
  b.received.clear();
  if (!a.sendData(b, 1) || !b.sendData(a, 2)) return "send failed";
  net.run(200);
  if (b.received != std::vector<uint32_t>{1} || a.received != std::vector<uint32_t>{2}) {
    return "traffic lost";
  }
  return "";
}

}  // namespace

TEST_CASE("link: after a 20-45 s outage both sides redial into one session (#22)") {
  // Both links die after 30 s; each side's redial backoff and msg1 resends
  // are then out in the dark, and the first ones after the return cross.
  // Settled well before link_dead_timeout: a half-open link would last
  // until the up side's dead timer.
  size_t failures = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const OutageCase c{seed, 20'000 + (seed * 7919) % 25'000};
    const std::string what = runOutage(c, 20'000);
    if (!what.empty()) {
      ++failures;
      if (failures <= 5) MESSAGE("seed " << seed << ", outage " << c.outageMs << " ms: " << what);
    }
  }
  CHECK(failures == 0);
}

}  // namespace fips::router::link::test
