// SPDX-License-Identifier: MIT
#include "router/stp/tree-state.h"

#include "router/stp/stp-test-util.h"  // first: sets up doctest
#include "router/stp/tree-test-net.h"

namespace fips::router::stp {
namespace {

using test::TreeNet;

TreeAnnounce decodeOk(std::span<const uint8_t> body) {
  auto d = decodeTreeAnnounce(body);
  REQUIRE(std::holds_alternative<TreeAnnounce>(d));
  return std::get<TreeAnnounce>(d);
}

// No two nodes are each other's parent, every path is at most n long and
// holds no node twice.
void checkSane(TreeNet& net) {
  for (size_t i = 0; i < net.size(); ++i) {
    const auto& n = net.node(i);
    REQUIRE(n.coordinates().path().size() <= net.size());
    const auto& path = n.coordinates().path();
    for (size_t a = 0; a < path.size(); ++a) {
      for (size_t b = a + 1; b < path.size(); ++b) REQUIRE(path[a] != path[b]);
    }
  }
}

bool mutualParents(TreeNet& net) {
  for (size_t i = 0; i < net.size(); ++i) {
    const auto p = net.node(i).parent();
    if (!p) continue;
    const auto back = net.node(net.indexOf(*p)).parent();
    if (back && *back == net.addr(i)) return true;
  }
  return false;
}

void checkConverged(TreeNet& net, size_t root, const std::vector<size_t>& members) {
  for (size_t i : members) CHECK(net.node(i).root() == net.addr(root));
  CHECK(net.node(root).isRoot());
}

}  // namespace

TEST_CASE("tree state: a new node is a signed root with sequence 1") {
  TreeNet net(1);
  auto& n = net.node(0);
  CHECK(n.isRoot());
  CHECK_FALSE(n.parent().has_value());
  CHECK(n.declaration().sequence == 1);
  CHECK(n.declaration().timestamp == net.now().unixSecs);
  const auto a = decodeOk(n.announceBody());
  CHECK(a.ancestry.size() == 1);
  CHECK(a.declaration == n.declaration());
  CHECK(verifyDeclaration(net.ctx(), net.key(0).publicKey().xOnly(), a.declaration, a.signature));
}

TEST_CASE("tree state: two peers elect the smaller address and become tree peers") {
  TreeNet net(2);
  net.link(0, 1);
  CHECK(net.queue().size() == 2);  // one announce each way on link up
  net.deliverAll();
  CHECK(net.node(1).parent() == net.addr(0));
  // Node 1's new declaration to 0 waits out the 500 ms rate limit.
  CHECK(net.node(0).peerCoordinates(net.addr(1))->depth() == 0);
  net.run(600);
  CHECK(net.node(1).coordinates() == Coordinates({net.addr(1), net.addr(0)}));
  CHECK(net.node(1).declaration().sequence == 2);
  CHECK(net.node(0).isRoot());
  CHECK(net.node(0).isTreePeer(net.addr(1)));
  CHECK(net.node(1).isTreePeer(net.addr(0)));
  CHECK(net.node(0).peerCoordinates(net.addr(1))->depth() == 1);
  // The advertised ancestry carries each node's own declaration metadata.
  const auto a = decodeOk(net.node(1).announceBody());
  REQUIRE(a.ancestry.size() == 2);
  CHECK(a.ancestry[0].sequence == 2);
  CHECK(a.ancestry[1].addr == net.addr(0));
  CHECK(a.ancestry[1].sequence == 1);
  CHECK_FALSE(validateSemantics(a).has_value());
}

TEST_CASE("tree state: a chain converges on the smallest address") {
  TreeNet net(5);
  // 4 - 2 - 3 - 0 - 1 (a line; addresses by index)
  net.link(4, 2);
  net.link(2, 3);
  net.link(3, 0);
  net.link(0, 1);
  net.check = [&] { checkSane(net); };
  net.run(2000);
  checkConverged(net, 0, {0, 1, 2, 3, 4});
  CHECK(net.node(4).coordinates() ==
        Coordinates({net.addr(4), net.addr(2), net.addr(3), net.addr(0)}));
  CHECK(net.node(1).coordinates().depth() == 1);
}

TEST_CASE("tree state: receive validation verdicts, in order") {
  TreeNet net(3);
  net.link(0, 1);
  net.queue().clear();
  const auto body0 = net.node(0).announceBody();

  // Not an active peer of node 2.
  auto r = net.node(2).onTreeAnnounce(net.addr(0), body0, {}, net.now());
  CHECK(r.verdict == TreeVerdict::UNKNOWN_PEER);
  // Malformed.
  r = net.node(1).onTreeAnnounce(net.addr(0), std::span(body0).first(50), {}, net.now());
  CHECK(r.verdict == TreeVerdict::DECODE_ERROR);
  CHECK(r.decodeError == TreeAnnounceError::SHORT);
  // Claimed by a different link peer.
  net.link(1, 2);
  net.queue().clear();
  r = net.node(1).onTreeAnnounce(net.addr(2), body0, {}, net.now());
  CHECK(r.verdict == TreeVerdict::ADDR_MISMATCH);
  // Accepted once, then stale (same sequence).
  r = net.node(1).onTreeAnnounce(net.addr(0), body0, {}, net.now());
  CHECK(r.verdict == TreeVerdict::ACCEPTED);
  r = net.node(1).onTreeAnnounce(net.addr(0), body0, {}, net.now());
  CHECK(r.verdict == TreeVerdict::STALE);
  CHECK(r.out.announceTo.empty());
  CHECK(net.node(1).counters().verdict(TreeVerdict::STALE) == 1);
  CHECK(net.node(2).counters().verdict(TreeVerdict::UNKNOWN_PEER) == 1);
}

TEST_CASE("tree state: a tampered TreeAnnounce is rejected") {
  TreeNet net(3);
  net.link(0, 1);
  net.link(1, 2);
  net.run(1000);
  REQUIRE(net.node(2).parent() == net.addr(1));
  // Node 1 forgets node 2's declaration (as for a relinked peer), so a
  // valid copy of node 2's [2, 1, 0] announce would be accepted again.
  const auto body = net.node(2).announceBody();
  net.node(1).removePeer(net.addr(2), {}, net.now());
  net.node(1).addPeer(net.addr(2), net.key(2).publicKey().xOnly(), net.now());
  const size_t n = decodeOk(body).ancestry.size();
  REQUIRE(n == 3);
  // Entry 0's address and every header and signature byte are covered.
  std::vector<size_t> offsets;
  for (size_t i = 1; i < 33; ++i) offsets.push_back(i);
  for (size_t i = 35; i < 51; ++i) offsets.push_back(i);
  for (size_t i = 0; i < 64; ++i) offsets.push_back(35 + 32 * n + i);
  for (size_t off : offsets) {
    auto bad = body;
    bad[off] ^= 0x40;
    const auto r = net.node(1).onTreeAnnounce(net.addr(2), bad, {}, net.now());
    CHECK(r.verdict != TreeVerdict::ACCEPTED);
    CHECK((r.verdict == TreeVerdict::BAD_SIGNATURE || r.verdict == TreeVerdict::ADDR_MISMATCH));
  }
  // An ancestor entry is not signed by the sender but must still be a valid
  // path: a root that is not the minimum is refused after the signature.
  auto forged = decodeOk(body);
  forged.ancestry[2].addr = test::addr(0xFF);
  const auto r = net.node(1).onTreeAnnounce(net.addr(2), encodeTreeAnnounce(forged), {}, net.now());
  CHECK(r.verdict == TreeVerdict::BAD_ANCESTRY);
  CHECK(r.ancestryError == AncestryError::ROOT_NOT_MINIMUM);
  // The untouched message is still accepted.
  CHECK(net.node(1).onTreeAnnounce(net.addr(2), body, {}, net.now()).verdict ==
        TreeVerdict::ACCEPTED);
}

TEST_CASE("tree state: triangle never loops, also after the root goes away") {
  // Checked after every delivered message and after every link removal, also
  // when both survivors lose the root at the same instant (before hearing
  // from each other): each then holds a stored path to the old root through
  // the other, which must not make them pick each other.
  for (const bool simultaneous : {false, true}) {
    CAPTURE(simultaneous);
    TreeNet net(3);
    net.check = [&] {
      checkSane(net);
      REQUIRE_FALSE(mutualParents(net));
    };
    net.link(0, 1);
    net.link(1, 2);
    net.link(2, 0);
    net.run(2000);
    checkConverged(net, 0, {0, 1, 2});
    CHECK(net.node(1).parent() == net.addr(0));
    CHECK(net.node(2).parent() == net.addr(0));

    net.unlink(0, 1);
    net.check();
    if (!simultaneous) net.run(3000);
    net.unlink(0, 2);
    net.check();
    net.run(5000);
    checkConverged(net, 1, {1, 2});
    CHECK(net.node(2).parent() == net.addr(1));
    CHECK(net.node(1).coordinates().path().size() == 1);
    CHECK(net.node(1).counters().loopsDetected + net.node(2).counters().loopsDetected == 0);
    // Quiet afterwards: stays converged, paths never grow.
    net.run(10 * 60 * 1000, 1000);
    checkConverged(net, 1, {1, 2});
    CHECK(net.node(2).coordinates().path().size() == 2);
  }
}

TEST_CASE("tree state: a path through the lost parent that still holds is taken back on the echo") {
  // 0 root; 1 under 0; 2 and 3 under 1, linked to each other. Cutting 1-2
  // leaves 2 only 3, whose stored path runs through the lost parent 1: 2 is
  // root for a moment, 3 answers 2's announce with its unchanged declaration
  // (same sequence) and 2 takes it.
  TreeNet net(4);
  net.check = [&] {
    checkSane(net);
    REQUIRE_FALSE(mutualParents(net));
  };
  net.link(0, 1);
  net.link(1, 2);
  net.link(1, 3);
  net.link(2, 3);
  net.run(2000);
  checkConverged(net, 0, {0, 1, 2, 3});
  REQUIRE(net.node(2).parent() == net.addr(1));
  REQUIRE(net.node(3).parent() == net.addr(1));
  const uint64_t seq3 = net.node(3).declaration().sequence;

  net.unlink(1, 2);
  net.check();
  CHECK(net.node(2).isRoot());
  CHECK(net.node(2).counters().peersDistrusted == 1);
  net.run(2000);
  checkConverged(net, 0, {0, 1, 2, 3});
  CHECK(net.node(2).parent() == net.addr(3));
  CHECK(net.node(3).declaration().sequence == seq3);  // 3 never changed
  CHECK(net.node(2).coordinates() ==
        Coordinates({net.addr(2), net.addr(3), net.addr(1), net.addr(0)}));
}

TEST_CASE("tree state: a node that becomes root advertises only itself") {
  TreeNet net(3);
  net.link(0, 1);
  net.link(1, 2);
  net.run(1000);
  REQUIRE(net.node(2).coordinates().depth() == 2);
  const uint64_t seqBefore = net.node(1).declaration().sequence;
  const auto& out = net.node(1).removePeer(net.addr(0), {}, net.now());
  CHECK(out.decision == TreeDecision::PARENT_LOST);
  CHECK(out.parentChanged);
  CHECK(out.invalidateViaSelf);
  CHECK(out.invalidateOtherRoots);
  CHECK(out.announceTo.empty());  // sent on the next tick
  net.node(0).removePeer(net.addr(1), {}, net.now());
  CHECK(net.node(1).isRoot());
  CHECK(net.node(1).declaration().sequence == seqBefore + 1);
  CHECK(net.node(1).declaration().parent == net.addr(1));
  const auto a = decodeOk(net.node(1).announceBody());
  REQUIRE(a.ancestry.size() == 1);
  CHECK(a.ancestry[0].addr == net.addr(1));
  CHECK(a.ancestry[0].sequence == seqBefore + 1);
  CHECK_FALSE(validateSemantics(a).has_value());
  // The child rebuilds its path from the new root on the next exchange.
  net.run(1000);
  CHECK(net.node(2).coordinates() == Coordinates({net.addr(2), net.addr(1)}));
  CHECK(net.node(2).parent() == net.addr(1));
}

TEST_CASE("tree state: one lost TreeAnnounce never latches a partition") {
  TreeConfig config;
  TreeNet net(4, config);
  net.link(0, 1);
  net.link(1, 3);
  net.run(1000);
  // Lose the first announce each way on the new 1-2 link: node 2 starts
  // knowing nothing, and node 1 has no reason to echo.
  int lost = 0;
  net.drop = [&](const TreeNet::Msg& m) {
    const bool onLink = (m.from == 1 && m.to == 2) || (m.from == 2 && m.to == 1);
    if (onLink && lost < 2) {
      ++lost;
      return true;
    }
    return false;
  };
  net.link(1, 2);
  net.run(1000);
  CHECK(lost == 2);
  CHECK(net.node(2).isRoot());  // stranded for now
  // Node 1 has two peers, so it re-announces within reeval_interval_secs.
  const uint64_t staleBefore = net.node(0).counters().verdict(TreeVerdict::STALE);
  net.run(config.reevalIntervalSecs * 1000 + 1000);
  CHECK(net.node(2).parent() == net.addr(1));
  checkConverged(net, 0, {0, 1, 2, 3});
  // The root got the same declaration again and dropped it by sequence.
  CHECK(net.node(0).counters().verdict(TreeVerdict::STALE) > staleBefore);
  CHECK(net.node(0).isRoot());
}

TEST_CASE("tree state: periodic re-announce needs two peers and is rate limited") {
  TreeNet net(3);
  net.link(0, 1);
  net.run(1000);
  const uint64_t before = net.sent();
  net.run(5 * 60 * 1000, 1000);
  CHECK(net.sent() == before);  // one peer each: no periodic traffic
  net.link(1, 2);
  net.run(1000);
  const uint64_t settled = net.sent();
  net.run(5 * 60 * 1000, 1000);
  // Node 1 (two peers) re-announces to both every 60 s: 5 rounds × 2.
  CHECK(net.sent() - settled == 10);

  // Back-to-back changes to one peer within 500 ms are deferred, not lost.
  auto& n = net.node(1);
  const auto out1 = n.reevaluate({}, net.now());
  CHECK(out1.announceTo.empty());
  net.unlink(1, 2);
  net.link(1, 2);
  net.queue().clear();
  const auto echo = n.onTreeAnnounce(net.addr(2), net.node(2).announceBody(), {}, net.now());
  CHECK(echo.verdict == TreeVerdict::ACCEPTED);
  CHECK(echo.out.announceTo.empty());  // 2 was root (worse): echo is rate limited
  CHECK(n.counters().rateLimited >= 1);
  const auto later = n.tick({}, TreeNow{.monoMs = net.now().monoMs + 500, .unixSecs = 0});
  CHECK(later.announceTo == std::vector<NodeAddr>{net.addr(2)});
}

TEST_CASE("tree state: link costs, hysteresis and hold-down") {
  TreeConfig config;
  TreeNet net(4, config);
  // Root 0 with children 1 and 2; node 3 is linked to 1 and 2.
  net.link(0, 1);
  net.link(0, 2);
  net.link(3, 1);
  net.link(3, 2);
  net.run(2000);
  auto& n = net.node(3);
  REQUIRE(n.parent() == net.addr(1));  // equal depth and cost: smaller address

  const auto now = [&](uint64_t plusMs) {
    return TreeNow{.monoMs = net.now().monoMs + plusMs, .unixSecs = net.now().unixSecs};
  };
  // Within hold-down a discretionary improvement is vetoed.
  LinkCosts costs{{net.addr(1), 5.0}, {net.addr(2), 1.0}};
  CHECK(n.reevaluate(costs, now(0)).decision == TreeDecision::NO_CHANGE);
  // After hold-down: 1 + 1 < (1 + 5) × 0.8 → switch.
  const auto out = n.reevaluate(costs, now(config.holdDownSecs * 1000));
  CHECK(out.decision == TreeDecision::SWITCH);
  CHECK(out.parentChanged);
  CHECK(out.invalidateViaSelf);
  CHECK(n.parent() == net.addr(2));
  // Hysteresis: 1 + 1.0 is not below (1 + 1.2) × 0.8 = 1.76.
  LinkCosts close{{net.addr(1), 1.0}, {net.addr(2), 1.2}};
  CHECK(n.reevaluate(close, now(2 * config.holdDownSecs * 1000)).decision ==
        TreeDecision::NO_CHANGE);
  // A measured map makes unmeasured peers ineligible; the current parent
  // unmeasured counts as infinitely expensive.
  LinkCosts onlyOne{{net.addr(1), 3.0}};
  CHECK(n.reevaluate(onlyOne, now(3 * config.holdDownSecs * 1000)).decision ==
        TreeDecision::SWITCH);
  CHECK(n.parent() == net.addr(1));
}

TEST_CASE("tree state: an ancestor swap reaches the grandchild as an ancestry update") {
  TreeConfig config;
  TreeNet net(4, config);
  // 0 - 3 - 1 - 2, then a shortcut 0 - 1: node 1 moves under 0 once its
  // hold-down has passed, and node 2 keeps its parent but learns the path.
  net.link(0, 3);
  net.link(3, 1);
  net.link(1, 2);
  net.run(2000);
  REQUIRE(net.node(2).coordinates() ==
          Coordinates({net.addr(2), net.addr(1), net.addr(3), net.addr(0)}));
  net.check = [&] { checkSane(net); };
  net.link(0, 1);
  net.run(2000);
  CHECK(net.node(1).parent() == net.addr(3));  // discretionary: held down
  net.run((config.holdDownSecs + config.reevalIntervalSecs) * 1000);
  CHECK(net.node(1).parent() == net.addr(0));
  CHECK(net.node(2).parent() == net.addr(1));
  CHECK(net.node(2).coordinates() == Coordinates({net.addr(2), net.addr(1), net.addr(0)}));
  CHECK(net.node(2).counters().ancestryChanged >= 1);
  CHECK(net.node(2).counters().parentSwitches == 1);  // only the first attach
}

TEST_CASE("tree state: losing the parent switches at once despite hold-down") {
  TreeNet net(4);
  net.link(0, 1);
  net.link(0, 2);
  net.link(3, 1);
  net.link(3, 2);
  net.run(2000);
  REQUIRE(net.node(3).parent() == net.addr(1));
  const auto out = net.node(3).removePeer(net.addr(1), {}, net.now());
  CHECK(out.decision == TreeDecision::PARENT_LOST);
  CHECK(net.node(3).parent() == net.addr(2));  // mandatory: bypasses hold-down
  CHECK(net.node(3).root() == net.addr(0));
  CHECK(net.node(3).counters().parentLosses == 1);
}

TEST_CASE("flap dampener: hold-down and dampening episodes") {
  TreeConfig config;
  config.holdDownSecs = 30;
  config.flapThreshold = 3;
  config.flapWindowSecs = 60;
  config.flapDampeningSecs = 120;
  FlapDampener f(config);
  CHECK_FALSE(f.suppressed(0));
  f.markParentSet(1000);
  CHECK(f.holdDownActive(1000 + 29999));
  CHECK_FALSE(f.holdDownActive(1000 + 30000));
  CHECK_FALSE(f.recordParentChange(1000));
  CHECK_FALSE(f.recordParentChange(2000));
  CHECK(f.recordParentChange(3000));  // third change in the window
  CHECK(f.dampened(3000 + 119999));
  CHECK_FALSE(f.dampened(3000 + 120000));
  // A new episode needs a full threshold again.
  CHECK_FALSE(f.recordParentChange(200000));
  CHECK_FALSE(f.recordParentChange(200001));
  CHECK(f.recordParentChange(200002));
  // Changes spread beyond the window never engage it.
  FlapDampener g(config);
  for (uint64_t t = 0; t < 10; ++t) CHECK_FALSE(g.recordParentChange(t * 61000));
  TreeConfig off;
  off.holdDownSecs = 0;
  FlapDampener h(off);
  h.markParentSet(5);
  CHECK_FALSE(h.holdDownActive(5));
}

}  // namespace fips::router::stp
