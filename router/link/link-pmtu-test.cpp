// SPDX-License-Identifier: MIT
// Unit tests of LinkPmtu (RFC 8899 search, black-hole detection, ceilings)
// on a fake millisecond clock: a simulated path answers each probe that is
// at most its MTU. Test code only.
#include "router/link/link-pmtu.h"

#include <doctest/doctest.h>

namespace fips::router::link {
namespace {

// A path that delivers probes up to `mtu` bytes and loses larger ones; runs
// the prober on a 1 s tick (as the router does), acking at once.
struct FakePath {
  uint16_t mtu;
  uint64_t now = 0;
  uint64_t nextId = 1;
  int probesSent = 0;

  void step(LinkPmtu& p) {
    auto probe = p.poll(now, nextId++);
    while (probe) {
      ++probesSent;
      if (probe->size > mtu) break;  // lost: detected on a later tick
      CHECK(p.onAck(probe->id, now));
      probe = p.poll(now, nextId++);
    }
  }
  // Ticks until the search settles (or `limitMs` passes); returns elapsed ms.
  uint64_t settle(LinkPmtu& p, uint64_t limitMs = 60000) {
    const uint64_t start = now;
    step(p);
    while (p.searching() && now - start < limitMs) {
      now += 1000;
      step(p);
    }
    return now - start;
  }
};

LinkPmtuConfig config1280() {
  LinkPmtuConfig c;
  c.maxMtu = 1280;
  c.baseMtu = 1200;
  return c;
}

TEST_CASE("link pmtu: a path that carries the configured MTU confirms it in one probe") {
  FakePath path{.mtu = 1500};
  LinkPmtu p(config1280(), 0);
  CHECK(p.mtu() == 1280);  // optimistic before the first answer
  CHECK(path.settle(p) == 0);
  CHECK(p.mtu() == 1280);
  CHECK(path.probesSent == 1);
}

TEST_CASE("link pmtu: a black hole below the configured MTU is found by probe loss alone") {
  // IPv4 path of IP MTU 1280: 1252 bytes of UDP payload fit, ICMP dropped.
  FakePath path{.mtu = 1252};
  LinkPmtu p(config1280(), 0);
  const uint64_t took = path.settle(p);
  CHECK(p.mtu() <= 1252);
  CHECK(p.mtu() >= 1252 - 4);
  CHECK(took <= 10000);  // a few probe timeouts, on the fake clock
}

TEST_CASE("link pmtu: the first loss lowers the estimate to the floor until probes answer") {
  FakePath path{.mtu = 1252};
  LinkPmtu p(config1280(), 0);
  path.step(p);  // 1280 sent, lost
  CHECK(p.mtu() == 1280);
  path.now = 1000;
  path.step(p);  // retry, lost
  CHECK(p.mtu() == 1280);
  path.now = 2000;
  path.step(p);  // second loss: too big; bisection starts from the floor
  CHECK(p.mtu() >= 1200);
  CHECK(p.mtu() <= 1252);
}

TEST_CASE("link pmtu: a path that shrinks mid-run is detected by the confirmation probe") {
  FakePath path{.mtu = 1500};
  LinkPmtu p(config1280(), 0);
  path.settle(p);
  REQUIRE(p.mtu() == 1280);
  path.mtu = 1272;  // a router's MTU falls to 1300 (IPv4): 1272 bytes of payload
  uint64_t waited = 0;
  while (p.mtu() == 1280 && waited < 30000) {
    path.now += 1000;
    waited += 1000;
    path.step(p);
  }
  CHECK(p.mtu() < 1280);
  CHECK(waited <= config1280().confirmIntervalMs + 3000);
  path.settle(p);
  CHECK(p.mtu() <= 1272);
  CHECK(p.mtu() >= 1272 - 4);
}

TEST_CASE("link pmtu: a path that grows back is found by the raise probe") {
  FakePath path{.mtu = 1252};
  LinkPmtu p(config1280(), 0);
  path.settle(p);
  REQUIRE(p.mtu() <= 1252);
  path.mtu = 1500;
  uint64_t waited = 0;
  while (p.mtu() < 1280 && waited < 30000) {
    path.now += 1000;
    waited += 1000;
    path.step(p);
  }
  CHECK(p.mtu() == 1280);
  CHECK(waited <= config1280().raiseIntervalMs + 1000);
}

TEST_CASE("link pmtu: a kernel ceiling lowers at once; larger or tiny ones are ignored") {
  FakePath path{.mtu = 1500};
  LinkPmtu p(config1280(), 0);
  path.settle(p);
  p.onCeiling(1400, path.now);
  CHECK(p.mtu() == 1280);
  p.onCeiling(100, path.now);
  CHECK(p.mtu() == 1280);
  p.onCeiling(1272, path.now);
  CHECK(p.mtu() == 1272);
  CHECK_FALSE(p.searching());
}

TEST_CASE("link pmtu: an ack for another id is not the probe's") {
  LinkPmtu p(config1280(), 0);
  auto probe = p.poll(0, 7);
  REQUIRE(probe);
  CHECK(probe->id == 7);
  CHECK(probe->size == 1280);
  CHECK_FALSE(p.onAck(8, 0));
  CHECK(p.onAck(7, 0));
  CHECK_FALSE(p.onAck(7, 0));  // answered already
}

TEST_CASE("link pmtu: a retry carries a fresh id and the old one no longer acks") {
  LinkPmtu p(config1280(), 0);
  REQUIRE(p.poll(0, 1));
  CHECK_FALSE(p.poll(500, 2));  // not timed out yet
  auto retry = p.poll(1000, 3);
  REQUIRE(retry);
  CHECK(retry->id == 3);
  CHECK(retry->size == 1280);
  CHECK_FALSE(p.onAck(1, 1001));
  CHECK(p.onAck(3, 1001));
}

}  // namespace
}  // namespace fips::router::link
