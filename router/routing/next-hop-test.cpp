// SPDX-License-Identifier: MIT
#include "router/routing/next-hop.h"

#include "router/routing/fake-mesh-view.h"
#include "router/routing/routing-test-util.h"

namespace fips::router::routing {
namespace {

using test::addr;
using test::coords;
using test::FakeMeshView;

// Root 0x01. We are 0x50 = [50, 01]; the destination 0x90 = [90, 30, 01]
// sits below 0x30, so our tree distance to it is 3.
const NodeAddr ME = addr(0x50);
const NodeAddr DEST = addr(0x90);

struct Fixture {
  FakeMeshView view{ME, coords({0x50, 0x01})};
  CoordCache cache{{.capacity = 10, .ttlMs = 1000}};
  Fixture() { cache.insert(DEST, coords({0x90, 0x30, 0x01}), 0); }
  NextHop hop(uint64_t now = 0) { return findNextHop(view, cache, DEST, now); }
};

TEST_CASE("next hop: local, direct peer, coordinates required") {
  Fixture f;
  CHECK(findNextHop(f.view, f.cache, ME, 0).kind == NextHopKind::LOCAL);

  f.view.addPeer(DEST, {});  // direct peer, no coordinates needed
  f.cache.clear();
  NextHop h = f.hop();
  REQUIRE(h.kind == NextHopKind::PEER);
  CHECK(h.rule == NextHopRule::DIRECT);
  CHECK(h.peer->addr == DEST);

  f.view.peer(DEST).sendReady = false;  // not send-ready: falls through to step 3
  CHECK(f.hop().kind == NextHopKind::COORDS_REQUIRED);
}

TEST_CASE("next hop: bloom candidates by (link_cost, distance, NodeAddr)") {
  Fixture f;
  f.view.addPeer(addr(0x30), coords({0x30, 0x01}), {DEST});        // distance 1
  f.view.addPeer(addr(0x40), coords({0x40, 0x30, 0x01}), {DEST});  // distance 2
  NextHop h = f.hop();
  REQUIRE(h.kind == NextHopKind::PEER);
  CHECK(h.rule == NextHopRule::BLOOM);
  CHECK(h.peer->addr == addr(0x30));

  SUBCASE("cheaper link wins over shorter distance") {
    f.view.peer(addr(0x40)).linkCost = 0.5;
    CHECK(f.hop().peer->addr == addr(0x40));
  }
  SUBCASE("equal cost and distance: smaller NodeAddr") {
    f.view.addPeer(addr(0x20), coords({0x20, 0x30, 0x01}), {DEST});  // distance 2, like 0x40
    f.view.peer(addr(0x30)).sendReady = false;
    CHECK(f.hop().peer->addr == addr(0x20));
  }
  SUBCASE("a peer without coordinates is never a bloom candidate") {
    f.view.peer(addr(0x30)).sendReady = false;
    f.view.peer(addr(0x40)).sendReady = false;
    f.view.addPeer(addr(0x10), {}, {DEST});
    CHECK(f.hop().kind == NextHopKind::PATH_BROKEN);
  }
}

TEST_CASE("next hop: no bloom candidate closer than us falls through to greedy tree routing") {
  Fixture f;
  // Our child 0x60 claims DEST in its filter but is farther (distance 4 > 3).
  f.view.addPeer(addr(0x60), coords({0x60, 0x50, 0x01}), {DEST}, true);
  // Our root-side peer 0x30 has no filter entry for DEST but is closer (1).
  f.view.addPeer(addr(0x30), coords({0x30, 0x01}), {}, true);
  const NextHop h = f.hop();
  REQUIRE(h.kind == NextHopKind::PEER);
  CHECK(h.rule == NextHopRule::GREEDY_TREE);
  CHECK(h.peer->addr == addr(0x30));

  SUBCASE("the greedy best must be send-ready, no second choice") {
    f.view.addPeer(addr(0x21), coords({0x21, 0x30, 0x01}));  // distance 2: closer, ready
    f.view.peer(addr(0x30)).sendReady = false;
    CHECK(f.hop().kind == NextHopKind::PATH_BROKEN);
  }
}

TEST_CASE("next hop: greedy tree ties go to the smaller NodeAddr") {
  Fixture f;
  f.view.addPeer(addr(0x2F), coords({0x2F, 0x30, 0x01}));  // distance 2
  f.view.addPeer(addr(0x20), coords({0x20, 0x30, 0x01}));  // distance 2
  const NextHop h = f.hop();
  REQUIRE(h.kind == NextHopKind::PEER);
  CHECK(h.rule == NextHopRule::GREEDY_TREE);
  CHECK(h.peer->addr == addr(0x20));
}

TEST_CASE("next hop: nobody closer, or greedy across different roots → PathBroken") {
  Fixture f;
  f.view.addPeer(addr(0x60), coords({0x60, 0x50, 0x01}), {DEST});  // distance 4 > 3
  CHECK(f.hop().kind == NextHopKind::PATH_BROKEN);

  // Our root differs from DEST's: greedy tree routing is off, while a bloom
  // candidate with a finite distance is still closer than our infinite one
  // (as in the reference's select_best_candidate).
  f.view.setSelfCoords(coords({0x50, 0x02}));
  f.view.addPeer(addr(0x30), coords({0x30, 0x01}));
  const NextHop h = f.hop();
  REQUIRE(h.kind == NextHopKind::PEER);
  CHECK(h.rule == NextHopRule::BLOOM);
  CHECK(h.peer->addr == addr(0x60));
  f.view.peer(addr(0x60)).sendReady = false;
  CHECK(f.hop().kind == NextHopKind::PATH_BROKEN);
}

TEST_CASE("next hop: the cached coordinates are refreshed on use") {
  Fixture f;
  f.view.addPeer(addr(0x30), coords({0x30, 0x01}), {DEST});
  REQUIRE(f.hop(900).kind == NextHopKind::PEER);
  CHECK(f.cache.get(DEST, 1900) != nullptr);  // TTL now runs from 900
  CHECK(f.hop(1901).kind == NextHopKind::COORDS_REQUIRED);
}

}  // namespace
}  // namespace fips::router::routing
