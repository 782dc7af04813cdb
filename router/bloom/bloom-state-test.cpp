// SPDX-License-Identifier: MIT
#include "router/bloom/bloom-state.h"

#include <deque>
#include <memory>
#include <set>

#include "router/stp/stp-test-util.h"  // first: sets up doctest
#include "router/stp/tree-state.h"

namespace fips::router::bloom {
namespace {

using stp::test::addr;

const TreePeerFn ALL_TREE = [](const NodeAddr&) { return true; };
const TreePeerFn NO_TREE = [](const NodeAddr&) { return false; };

std::vector<uint8_t> announceBody(uint64_t seq, std::initializer_list<uint8_t> members) {
  FilterAnnounce a{.sequence = seq, .filter = {}};
  for (uint8_t m : members) a.filter.insert(addr(m));
  return encodeFilterAnnounce(a);
}

FilterAnnounce decodeOk(const std::vector<uint8_t>& body) {
  auto d = decodeFilterAnnounce(body);
  REQUIRE(std::holds_alternative<FilterAnnounce>(d));
  return std::get<FilterAnnounce>(d);
}

// Tree, bloom and link plumbing of n nodes, as the mesh node would wire them:
// TreeAnnounce and FilterAnnounce bodies cross a FIFO on virtual time.
class MeshNet {
 public:
  explicit MeshNet(size_t n, const BloomConfig& config = {})
      : keys_(stp::test::sortedTestKeys(ctx_, n)) {
    for (const auto& k : keys_) {
      trees_.push_back(std::make_unique<stp::TreeState>(ctx_, k.key, treeConfig_, rng_, now()));
      blooms_.push_back(std::make_unique<BloomState>(k.addr, config));
    }
  }
  stp::TreeNow now() const { return {.monoMs = ms_, .unixSecs = 1700000000 + ms_ / 1000}; }
  const NodeAddr& addr(size_t i) const { return keys_[i].addr; }
  BloomState& bloom(size_t i) { return *blooms_[i]; }
  stp::TreeState& tree(size_t i) { return *trees_[i]; }
  TreePeerFn treePeers(size_t i) {
    return [this, i](const NodeAddr& p) { return trees_[i]->isTreePeer(p); };
  }

  void link(size_t a, size_t b) {
    links_.insert({std::min(a, b), std::max(a, b)});
    up(a, b);
    up(b, a);
  }
  void run(uint64_t totalMs, uint64_t stepMs = 100) {
    deliver();
    for (uint64_t t = 0; t < totalMs; t += stepMs) {
      ms_ += stepMs;
      for (size_t i = 0; i < trees_.size(); ++i) {
        treeOut(i, trees_[i]->tick({}, now()), std::nullopt);
        for (auto& s : blooms_[i]->tick(ms_, treePeers(i))) {
          queue_.push_back({true, i, index(s.peer), std::move(s.body)});
          ++filtersSent;
        }
      }
      deliver();
    }
  }
  uint64_t filtersSent = 0;
  // True = lose this FilterAnnounce (from, to).
  std::function<bool(size_t, size_t)> dropFilter;

 private:
  struct Msg {
    bool filter;
    size_t from;
    size_t to;
    std::vector<uint8_t> body;
  };
  size_t index(const NodeAddr& a) const {
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i].addr == a) return i;
    }
    throw std::out_of_range("unknown");
  }
  void up(size_t a, size_t b) {
    blooms_[a]->addPeer(addr(b));
    treeOut(a, trees_[a]->addPeer(addr(b), keys_[b].key.publicKey().xOnly(), now()), std::nullopt);
  }
  void treeOut(size_t i, const stp::TreeOutput& out, std::optional<size_t> from) {
    for (const auto& p : out.announceTo) {
      queue_.push_back({false, i, index(p), trees_[i]->announceBody()});
    }
    if (out.parentChanged) blooms_[i]->markAll();
    if (out.bloomRecheck && from) blooms_[i]->markChanged(addr(*from), treePeers(i));
  }
  void deliver() {
    while (!queue_.empty()) {
      Msg m = std::move(queue_.front());
      queue_.pop_front();
      if (m.filter && dropFilter && dropFilter(m.from, m.to)) continue;
      if (m.filter) {
        const auto r = blooms_[m.to]->onFilterAnnounce(addr(m.from), m.body, treePeers(m.to));
        REQUIRE(r.verdict == BloomVerdict::ACCEPTED);
      } else {
        const auto r = trees_[m.to]->onTreeAnnounce(addr(m.from), m.body, {}, now());
        treeOut(m.to, r.out, m.from);
      }
    }
  }

  crypto::Secp256k1Context ctx_;
  crypto::OpenSslRng rng_;
  stp::TreeConfig treeConfig_;  // every tree's (TreeState keeps a reference)
  std::vector<stp::test::TestKey> keys_;
  std::vector<std::unique_ptr<stp::TreeState>> trees_;
  std::vector<std::unique_ptr<BloomState>> blooms_;
  std::set<std::pair<size_t, size_t>> links_;
  std::deque<Msg> queue_;
  uint64_t ms_ = 1000000;
};

}  // namespace

TEST_CASE("bloom state: a new peer gets {self} with the node-global sequence") {
  BloomState s(addr(1), BloomConfig{});
  s.addPeer(addr(2));
  s.addPeer(addr(3));
  const auto sends = s.tick(1000, ALL_TREE);
  REQUIRE(sends.size() == 2);
  const auto a = decodeOk(sends[0].body);
  const auto b = decodeOk(sends[1].body);
  CHECK(a.sequence == 1);
  CHECK(b.sequence == 2);
  CHECK(s.sequence() == 2);
  CHECK(a.filter.contains(addr(1)));
  CHECK(a.filter.countOnes() <= 5);
  CHECK(a.filter.hashCount() == 5);
  // Each is sent once more confirmDelayMs later (a lost first copy must not
  // leave the peer without our filter), then nothing while nothing changes.
  CHECK(s.tick(1000 + BloomConfig{}.confirmDelayMs - 1, ALL_TREE).empty());
  const auto again = s.tick(1000 + BloomConfig{}.confirmDelayMs, ALL_TREE);
  REQUIRE(again.size() == 2);
  CHECK(decodeOk(again[0].body).sequence == 3);
  CHECK(decodeOk(again[0].body).filter == a.filter);
  CHECK(s.counters().confirmations == 2);
  CHECK(s.tick(60000, ALL_TREE).empty());  // nothing marked: nothing sent
}

TEST_CASE("bloom state: a peer routing us a target our last filter lacks gets it again") {
  BloomState s(addr(1), BloomConfig{});
  s.addPeer(addr(2));
  CHECK_FALSE(s.advertised(addr(2), addr(1)));  // nothing sent yet
  REQUIRE(s.tick(1000, ALL_TREE).size() == 1);
  REQUIRE(s.tick(5000, ALL_TREE).size() == 1);  // the repeat
  CHECK(s.advertised(addr(2), addr(1)));
  CHECK_FALSE(s.advertised(addr(2), addr(9)));
  CHECK_FALSE(s.advertised(addr(7), addr(1)));  // unknown peer
  s.repair(addr(7));                            // ignored
  CHECK(s.tick(10000, ALL_TREE).empty());
  s.repair(addr(2));
  s.repair(addr(2));  // already marked
  CHECK(s.counters().repairs == 1);
  const auto sends = s.tick(10000, ALL_TREE);
  REQUIRE(sends.size() == 1);
  CHECK(decodeOk(sends[0].body).filter.contains(addr(1)));
}

TEST_CASE("bloom state: a lost FilterAnnounce is repaired by its repeat") {
  // 0 - 1 - 2; 2's only FilterAnnounce to 1 that would ever change is lost.
  // Without the repeat (confirmDelayMs 0, the reference) 1 and 0 never learn 2.
  for (const uint64_t confirmMs : {uint64_t{0}, BloomConfig{}.confirmDelayMs}) {
    CAPTURE(confirmMs);
    MeshNet net(3, BloomConfig{.confirmDelayMs = confirmMs});
    bool lost = false;
    net.dropFilter = [&](size_t from, size_t to) {
      if (lost || from != 2 || to != 1) return false;
      lost = true;
      return true;
    };
    net.link(0, 1);
    net.link(1, 2);
    net.run(10000);
    REQUIRE(lost);
    const bool repaired = confirmMs > 0;
    CHECK(net.bloom(1).peerContains(net.addr(2), net.addr(2)) == repaired);
    CHECK(net.bloom(0).peerContains(net.addr(1), net.addr(2)) == repaired);
    const uint64_t settled = net.filtersSent;
    net.run(5 * 60 * 1000, 500);
    CHECK(net.filtersSent == settled);
  }
}

TEST_CASE("bloom state: inbound sequence rules and verdicts") {
  BloomState s(addr(1), BloomConfig{});
  CHECK(s.onFilterAnnounce(addr(2), announceBody(1, {2}), ALL_TREE).verdict ==
        BloomVerdict::UNKNOWN_PEER);
  s.addPeer(addr(2));
  CHECK(s.onFilterAnnounce(addr(2), announceBody(0, {2}), ALL_TREE).verdict ==
        BloomVerdict::STALE);  // 0 is never accepted
  CHECK(s.onFilterAnnounce(addr(2), announceBody(5, {2}), ALL_TREE).verdict ==
        BloomVerdict::ACCEPTED);
  CHECK(s.onFilterAnnounce(addr(2), announceBody(5, {2, 7}), ALL_TREE).verdict ==
        BloomVerdict::STALE);
  CHECK(s.onFilterAnnounce(addr(2), announceBody(4, {2, 7}), ALL_TREE).verdict ==
        BloomVerdict::STALE);
  CHECK_FALSE(s.peerContains(addr(2), addr(7)));
  CHECK(s.onFilterAnnounce(addr(2), announceBody(6, {2, 7}), ALL_TREE).verdict ==
        BloomVerdict::ACCEPTED);
  CHECK(s.peerContains(addr(2), addr(7)));
  const auto whole = announceBody(7, {2});
  const auto bad = s.onFilterAnnounce(addr(2), std::span(whole).first(12), ALL_TREE);
  CHECK(bad.verdict == BloomVerdict::DECODE_ERROR);
  CHECK(bad.decodeError == FilterAnnounceError::SHORT_FILTER);
  CHECK(s.counters().verdict(BloomVerdict::STALE) == 3);
  CHECK(s.counters().verdict(BloomVerdict::ACCEPTED) == 2);
  // A relinked peer starts again from 0.
  s.removePeer(addr(2));
  s.addPeer(addr(2));
  CHECK(s.inboundFilter(addr(2)) == nullptr);
  CHECK(s.onFilterAnnounce(addr(2), announceBody(1, {2}), ALL_TREE).verdict ==
        BloomVerdict::ACCEPTED);
}

TEST_CASE("bloom state: a saturated inbound filter is rejected and counted") {
  BloomState s(addr(1), BloomConfig{});
  s.addPeer(addr(2));
  REQUIRE(s.onFilterAnnounce(addr(2), announceBody(1, {2, 9}), ALL_TREE).verdict ==
          BloomVerdict::ACCEPTED);
  auto full = announceBody(2, {});
  std::fill(full.begin() + 10, full.end(), 0xFF);
  const auto r = s.onFilterAnnounce(addr(2), full, ALL_TREE);
  CHECK(r.verdict == BloomVerdict::FPR_EXCEEDED);
  CHECK(s.counters().verdict(BloomVerdict::FPR_EXCEEDED) == 1);
  // The previous filter and sequence stay: seq 2 is still acceptable.
  CHECK(s.peerContains(addr(2), addr(9)));
  CHECK_FALSE(s.peerContains(addr(2), addr(33)));
  CHECK(s.onFilterAnnounce(addr(2), announceBody(2, {2}), ALL_TREE).verdict ==
        BloomVerdict::ACCEPTED);
  // Just under the cap (fill 0.7: 0.7^5 = 0.168) is accepted; 0.75 is not.
  auto partial = [](uint64_t seq, size_t bytes) {
    auto b = announceBody(seq, {});
    std::fill(b.begin() + 10, b.begin() + 10 + static_cast<std::ptrdiff_t>(bytes), 0xFF);
    return b;
  };
  CHECK(s.onFilterAnnounce(addr(2), partial(3, 768), ALL_TREE).verdict ==
        BloomVerdict::FPR_EXCEEDED);
  CHECK(s.onFilterAnnounce(addr(2), partial(4, 716), ALL_TREE).verdict == BloomVerdict::ACCEPTED);
}

TEST_CASE("bloom state: split horizon over tree peers only") {
  BloomState s(addr(1), BloomConfig{});
  for (const uint8_t p : std::array<uint8_t, 3>{2, 3, 4}) s.addPeer(addr(p));
  const TreePeerFn tree = [](const NodeAddr& p) { return p == addr(2) || p == addr(3); };
  (void)s.tick(0, tree);
  REQUIRE(s.onFilterAnnounce(addr(2), announceBody(1, {2, 20}), tree).verdict ==
          BloomVerdict::ACCEPTED);
  REQUIRE(s.onFilterAnnounce(addr(3), announceBody(1, {3, 30}), tree).verdict ==
          BloomVerdict::ACCEPTED);
  REQUIRE(s.onFilterAnnounce(addr(4), announceBody(1, {4, 40}), tree).verdict ==
          BloomVerdict::ACCEPTED);

  const auto to2 = s.outgoingFilter(addr(2), tree);
  CHECK(to2.contains(addr(1)));
  CHECK(to2.contains(addr(30)));
  CHECK_FALSE(to2.contains(addr(20)));  // not back to where it came from
  CHECK_FALSE(to2.contains(addr(40)));  // non-tree filters are not merged
  const auto to4 = s.outgoingFilter(addr(4), tree);
  CHECK(to4.contains(addr(20)));
  CHECK(to4.contains(addr(30)));
  CHECK_FALSE(to4.contains(addr(40)));

  // Routing query: every stored filter counts, tree or not.
  CHECK(s.peersContaining(addr(40)) == std::vector<NodeAddr>{addr(4)});
  CHECK(s.peersContaining(addr(30)) == std::vector<NodeAddr>{addr(3)});
  CHECK(s.peersContaining(addr(99)).empty());

  // Filters go to all peers, tree or not, each with its own split horizon.
  const auto sends = s.tick(1000, tree);
  REQUIRE(sends.size() == 3);
  for (const auto& send : sends)
    CHECK(decodeOk(send.body).filter == s.outgoingFilter(send.peer, tree));
}

TEST_CASE("bloom state: every peer's sent filter is its own split-horizon union") {
  BloomState s(addr(100), BloomConfig{});
  const TreePeerFn tree = [](const NodeAddr& p) { return p.bytes()[0] % 3 != 0; };
  for (uint8_t p = 1; p <= 9; ++p) s.addPeer(addr(p));
  for (uint8_t p = 1; p <= 9; ++p) {
    if (p == 5) continue;  // a tree peer that sent nothing yet
    const auto body = announceBody(1, {p, static_cast<uint8_t>(p + 10)});
    REQUIRE(s.onFilterAnnounce(addr(p), body, tree).verdict == BloomVerdict::ACCEPTED);
  }
  const auto sends = s.tick(0, tree);
  REQUIRE(sends.size() == 9);
  for (const auto& send : sends) {
    const auto got = decodeOk(send.body).filter;
    CHECK(got == s.outgoingFilter(send.peer, tree));
    BloomFilter want;
    want.insert(addr(100));
    for (uint8_t p = 1; p <= 9; ++p) {
      if (p == 5 || p % 3 == 0 || addr(p) == send.peer) continue;
      want.insert(addr(p));
      want.insert(addr(static_cast<uint8_t>(p + 10)));
    }
    CHECK(got == want);
  }
}

TEST_CASE("bloom state: only changed outgoing filters are re-sent, after the debounce") {
  BloomState s(addr(1), BloomConfig{});
  s.addPeer(addr(2));
  s.addPeer(addr(3));
  REQUIRE(s.tick(1000, ALL_TREE).size() == 2);
  // New entries from 2 change what 3 should hear, not what 2 should hear.
  REQUIRE(s.onFilterAnnounce(addr(2), announceBody(1, {2, 20}), ALL_TREE).verdict ==
          BloomVerdict::ACCEPTED);
  CHECK(s.pending(addr(3)));
  CHECK_FALSE(s.pending(addr(2)));
  CHECK(s.tick(1400, ALL_TREE).empty());  // 400 ms since the last send to 3
  const auto sends = s.tick(1500, ALL_TREE);
  REQUIRE(sends.size() == 1);
  CHECK(sends[0].peer == addr(3));
  CHECK(decodeOk(sends[0].body).filter.contains(addr(20)));
  // The same content again changes nothing.
  REQUIRE(s.onFilterAnnounce(addr(2), announceBody(2, {2, 20}), ALL_TREE).verdict ==
          BloomVerdict::ACCEPTED);
  CHECK_FALSE(s.pending(addr(3)));
  // markAll is unconditional (tree parent changed).
  s.markAll();
  CHECK(s.tick(3000, ALL_TREE).size() == 2);
  // A peer that stops being a tree peer no longer feeds the others.
  CHECK_FALSE(s.outgoingFilter(addr(3), NO_TREE).contains(addr(20)));
}

TEST_CASE("bloom state: two idle nodes stop exchanging FilterAnnounces") {
  MeshNet net(2);
  net.link(0, 1);
  net.run(5000);
  const uint64_t initial = net.filtersSent;
  CHECK(initial >= 2);
  CHECK(initial <= 4);
  net.run(5 * 60 * 1000, 100);
  CHECK(net.filtersSent == initial);
  CHECK(net.bloom(0).peerContains(net.addr(1), net.addr(1)));
  CHECK(net.bloom(1).peerContains(net.addr(0), net.addr(0)));
}

TEST_CASE("bloom state: reachability propagates along the tree and then goes quiet") {
  MeshNet net(5);
  // 4 - 2 - 3 - 0 - 1 plus a non-tree shortcut 4 - 1 (tree picks via 0).
  net.link(4, 2);
  net.link(2, 3);
  net.link(3, 0);
  net.link(0, 1);
  net.link(4, 1);
  net.run(10000);
  const uint64_t settled = net.filtersSent;
  // Each end finds every other node through some peer's filter.
  for (size_t i = 0; i < 5; ++i) {
    for (size_t j = 0; j < 5; ++j) {
      if (i == j) continue;
      CAPTURE(i);
      CAPTURE(j);
      CHECK_FALSE(net.bloom(i).peersContaining(net.addr(j)).empty());
    }
  }
  net.run(5 * 60 * 1000, 500);
  CHECK(net.filtersSent == settled);
}

}  // namespace fips::router::bloom
