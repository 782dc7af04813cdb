// SPDX-License-Identifier: MIT
// A small in-process network of TreeStates for unit tests: nodes exchange
// TreeAnnounce bodies through a FIFO queue on virtual time, with optional
// loss. Test code only.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "lib/crypto/rng.h"
#include "router/stp/stp-test-util.h"
#include "router/stp/tree-state.h"

namespace fips::router::stp::test {

class TreeNet {
 public:
  struct Msg {
    size_t from;
    size_t to;
    std::vector<uint8_t> body;
  };

  // n nodes, index 0 the smallest address.
  explicit TreeNet(size_t n, const TreeConfig& config = {})
      : config_(config), keys_(sortedTestKeys(ctx_, n)) {
    for (const auto& k : keys_) {
      nodes_.push_back(std::make_unique<TreeState>(ctx_, k.key, config_, rng_, now()));
    }
  }

  TreeNow now() const {
    return TreeNow{.monoMs = monoMs_, .unixSecs = 1700000000 + monoMs_ / 1000};
  }
  TreeState& node(size_t i) { return *nodes_.at(i); }
  const NodeAddr& addr(size_t i) const { return keys_.at(i).addr; }
  const crypto::SecretKey& key(size_t i) const { return keys_.at(i).key; }
  size_t indexOf(const NodeAddr& a) const {
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i].addr == a) return i;
    }
    throw std::out_of_range("unknown address");
  }
  size_t size() const { return nodes_.size(); }
  const crypto::Secp256k1Context& ctx() const { return ctx_; }

  // Queues the announces an output asks for (bodies taken now, as a caller would).
  void execute(size_t i, const TreeOutput& out) {
    for (const auto& peer : out.announceTo) {
      queue_.push_back(Msg{i, indexOf(peer), nodes_[i]->announceBody()});
      ++sent_;
    }
  }

  void link(size_t a, size_t b) {
    links_.insert({std::min(a, b), std::max(a, b)});
    execute(a, nodes_[a]->addPeer(addr(b), keys_[b].key.publicKey().xOnly(), now()));
    execute(b, nodes_[b]->addPeer(addr(a), keys_[a].key.publicKey().xOnly(), now()));
  }

  // Link down seen by both ends in turn (the first end's removal is fully
  // processed, in-flight messages on the link are lost).
  void unlink(size_t a, size_t b) {
    links_.erase({std::min(a, b), std::max(a, b)});
    execute(a, nodes_[a]->removePeer(addr(b), {}, now()));
    execute(b, nodes_[b]->removePeer(addr(a), {}, now()));
  }

  bool linked(size_t a, size_t b) const {
    return links_.count({std::min(a, b), std::max(a, b)}) > 0;
  }

  // Delivers queued messages (and those they cause) until the queue is empty;
  // check runs after each delivery.
  void deliverAll() {
    while (!queue_.empty()) {
      Msg m = std::move(queue_.front());
      queue_.pop_front();
      if (!linked(m.from, m.to) || (drop && drop(m))) continue;
      const auto r = nodes_[m.to]->onTreeAnnounce(addr(m.from), m.body, {}, now());
      lastVerdicts.push_back(r.verdict);
      execute(m.to, r.out);
      if (check) check();
    }
  }

  // Advances virtual time in steps of stepMs for totalMs, ticking every node
  // and delivering everything after each step.
  void run(uint64_t totalMs, uint64_t stepMs = 100) {
    deliverAll();
    for (uint64_t t = 0; t < totalMs; t += stepMs) {
      monoMs_ += stepMs;
      for (size_t i = 0; i < nodes_.size(); ++i) execute(i, nodes_[i]->tick({}, now()));
      deliverAll();
    }
  }

  uint64_t sent() const { return sent_; }
  std::deque<Msg>& queue() { return queue_; }

  std::function<bool(const Msg&)> drop;  // true = lose this message
  std::function<void()> check;           // invariant after each delivery
  std::vector<TreeVerdict> lastVerdicts;

 private:
  crypto::Secp256k1Context ctx_;
  crypto::OpenSslRng rng_;
  TreeConfig config_;  // every node's (TreeState keeps a reference)
  std::vector<TestKey> keys_;
  std::vector<std::unique_ptr<TreeState>> nodes_;
  std::set<std::pair<size_t, size_t>> links_;
  std::deque<Msg> queue_;
  uint64_t monoMs_ = 1000000;
  uint64_t sent_ = 0;
};

}  // namespace fips::router::stp::test
