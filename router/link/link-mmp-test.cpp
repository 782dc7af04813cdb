// SPDX-License-Identifier: MIT
// Link-layer MMP inside the link engine, on virtual time (spec 02 §9): the
// reports go out on the reference's schedule, SRTT converges to the injected
// delay, the loss estimate matches the injected loss, and the per-link packet
// and byte counters are exact against the wire. Test code only.
#include <doctest/doctest.h>

#include "router/link/link-manager.h"
#include "router/link/link-test-net.h"

namespace fips::router::link::test {
namespace {

LinkMetrics metricsOf(const TestNode& a, const TestNode& b) {
  const auto p = a.peer(b);
  REQUIRE(p.has_value());
  return p->metrics;
}

// Two nodes, a dials b, link up.
struct Pair {
  explicit Pair(uint64_t seed, uint64_t delayMs, const LinkConfig& config = LinkConfig{})
      : net(seed), a(net.add(config)), b(net.add(config)) {
    net.fixedDelayMs = delayMs;
    net.connect(a, b);
    net.run(2000 + 4 * delayMs);
    REQUIRE(a.hasPeer(b));
    REQUIRE(b.hasPeer(a));
  }
  TestNet net;
  TestNode& a;
  TestNode& b;
};

TEST_CASE("link mmp: SRTT converges to the injected round trip, cost follows") {
  for (const uint64_t delay : {20U, 50U, 150U}) {
    Pair p(3, delay);
    p.net.run(20'000);
    for (const auto& [x, y] : {std::pair{&p.a, &p.b}, std::pair{&p.b, &p.a}}) {
      const LinkMetrics m = metricsOf(*x, *y);
      REQUIRE(m.srttMs.has_value());
      CHECK(*m.srttMs == doctest::Approx(2.0 * static_cast<double>(delay)));
      CHECK(m.lossRate == 0.0);
      CHECK(m.etx == 1.0);
      CHECK(m.linkCost == doctest::Approx(1.0 + 2.0 * static_cast<double>(delay) / 100.0));
      CHECK(m.rttSamples >= 10);
      REQUIRE(x->measured.size() == 1);  // first RTT reported once
      CHECK(x->measured[0] == y->nodeAddr);
    }
  }
}

TEST_CASE("link mmp: reports go out on the SRTT schedule (first at once, then clamp)") {
  // 1.5 s each way: SRTT 3 s, so ReceiverReports every 3 s and
  // SenderReports every min(2 × SRTT, 5 s) = 5 s once SRTT is known.
  Pair p(5, 1500);
  const LinkMetrics first = metricsOf(p.a, p.b);
  CHECK(first.senderReportsSent >= 1);  // sent on the first tick with data
  CHECK(first.receiverReportsSent >= 1);
  p.net.run(30'000);
  const LinkMetrics before = metricsOf(p.a, p.b);
  REQUIRE(before.srttMs.has_value());
  CHECK(*before.srttMs == doctest::Approx(3000.0));
  CHECK(before.receiverIntervalMs == 3000);
  CHECK(before.senderIntervalMs == 5000);
  p.net.run(60'000);
  const LinkMetrics after = metricsOf(p.a, p.b);
  CHECK(after.receiverReportsSent - before.receiverReportsSent == 20);  // 60 s / 3 s
  CHECK(after.senderReportsSent - before.senderReportsSent == 12);      // 60 s / 5 s
  // A fast link reports on every 1 s tick (interval floor 1 s).
  Pair fast(6, 10);
  fast.net.run(10'000);
  const LinkMetrics f0 = metricsOf(fast.a, fast.b);
  fast.net.run(10'000);
  const LinkMetrics f1 = metricsOf(fast.a, fast.b);
  CHECK(f1.receiverReportsSent - f0.receiverReportsSent == 10);
  CHECK(f1.senderReportsSent - f0.senderReportsSent == 10);
}

TEST_CASE("link mmp: modes: lightweight sends only ReceiverReports, minimal none") {
  LinkConfig light;
  light.mmpMode = MmpMode::LIGHTWEIGHT;
  Pair l(7, 20, light);
  l.net.run(10'000);
  CHECK(metricsOf(l.a, l.b).senderReportsSent == 0);
  CHECK(metricsOf(l.a, l.b).receiverReportsSent >= 9);
  CHECK(metricsOf(l.a, l.b).srttMs.has_value());
  LinkConfig minimal;
  minimal.mmpMode = MmpMode::MINIMAL;
  Pair m(7, 20, minimal);
  m.net.run(10'000);
  CHECK(metricsOf(m.a, m.b).senderReportsSent == 0);
  CHECK(metricsOf(m.a, m.b).receiverReportsSent == 0);
  CHECK_FALSE(metricsOf(m.a, m.b).srttMs.has_value());
  CHECK(metricsOf(m.a, m.b).linkCost == 1.0);
}

TEST_CASE("link mmp: the loss estimate matches the injected loss") {
  Pair p(9, 10);
  // Drop every 10th established frame a → b; b → a is clean.
  uint64_t aToB = 0;
  p.net.rule = [&](const Packet& pkt) {
    if (pkt.from != p.a.index || pkt.phase() != 0) return Verdict::DELIVER;
    return ++aToB % 10 == 0 ? Verdict::DROP : Verdict::DELIVER;
  };
  // 100 frames a second from a to b for 150 s (the long EWMA, alpha 1/32,
  // is then within 1 % of its input).
  for (uint32_t i = 0; i < 15000; ++i) {
    p.a.sendData(p.b, i);
    p.net.run(10);
  }
  // A rekey (after_secs 120) happened on the way and the loss is still
  // measured after it (frames of the draining session do not freeze the
  // receiver's highest counter).
  CHECK(p.a.peer(p.b)->rekeys >= 1);
  const LinkMetrics a = metricsOf(p.a, p.b);
  REQUIRE(a.smoothedLoss.has_value());
  const auto within = [](double v, double lo, double hi) { return v >= lo && v <= hi; };
  CHECK(within(a.lossRate, 0.07, 0.13));  // the last report interval
  CHECK(within(*a.smoothedLoss, 0.09, 0.11));
  CHECK(within(a.deliveryForward, 0.87, 0.93));
  CHECK(within(a.etx, 1.07, 1.15));
  // b measures the same loss on its receive side: reverse delivery ≈ 0.9.
  const LinkMetrics b = metricsOf(p.b, p.a);
  CHECK(within(b.deliveryReverse, 0.87, 0.93));
  CHECK(b.lossRate == 0.0);
  CHECK(b.lossBursts >= 1500);  // every drop is a one-frame gap at b
  // Loss raises the cost above a clean link with the same delay.
  Pair clean(9, 10);
  clean.net.run(60'000);
  CHECK(a.linkCost > metricsOf(clean.a, clean.b).linkCost);
}

TEST_CASE("link mmp: jitter follows the injected delay variation") {
  Pair still(13, 30);
  still.net.run(20'000);
  CHECK(metricsOf(still.b, still.a).jitterUs == 0);  // constant delay: no jitter
  Pair p(13, 30);
  p.net.maxDelayMs = 20;  // extra delay uniform in 0..20 ms: E|D| = 20/3 ms
  for (uint32_t i = 0; i < 3000; ++i) {
    p.a.sendData(p.b, i);
    p.net.run(10);
  }
  const LinkMetrics b = metricsOf(p.b, p.a);
  CHECK(b.jitterUs >= 3000);
  CHECK(b.jitterUs <= 11000);
  CHECK(b.reorderCount > 0);  // 10 ms spacing, 20 ms spread
  const LinkMetrics a = metricsOf(p.a, p.b);
  REQUIRE(a.srttMs.has_value());
  CHECK(*a.srttMs >= 60.0);  // 2 × 30 ms plus up to 2 × 20
  CHECK(*a.srttMs <= 100.0);
}

TEST_CASE("link mmp: per-link packet and byte counters are exact against the wire") {
  Pair p(11, 30);
  p.net.logging = true;
  p.net.log.clear();
  const LinkMetrics a0 = metricsOf(p.a, p.b);
  const LinkMetrics b0 = metricsOf(p.b, p.a);
  for (uint32_t i = 0; i < 300; ++i) {
    p.a.sendData(p.b, i);
    if (i % 3 == 0) p.b.sendData(p.a, i);
    p.net.run(50);
  }
  p.net.logging = false;
  p.net.run(200);  // everything logged has landed (30 ms delay)
  uint64_t pkts[2] = {0, 0};
  uint64_t bytes[2] = {0, 0};
  for (const Packet& pkt : p.net.log) {
    if (pkt.phase() != 0) continue;
    ++pkts[pkt.from];
    bytes[pkt.from] += pkt.bytes.size();
  }
  const LinkMetrics a1 = metricsOf(p.a, p.b);
  const LinkMetrics b1 = metricsOf(p.b, p.a);
  // Every frame logged after the snapshot was sent by its node and, with no
  // loss and nothing left in flight, received by the other.
  CHECK(a1.packetsSent - a0.packetsSent == pkts[p.a.index]);
  CHECK(a1.bytesSent - a0.bytesSent == bytes[p.a.index]);
  CHECK(b1.packetsRecv - b0.packetsRecv == pkts[p.a.index]);
  CHECK(b1.bytesRecv - b0.bytesRecv == bytes[p.a.index]);
  CHECK(b1.packetsSent - b0.packetsSent == pkts[p.b.index]);
  CHECK(a1.packetsRecv - a0.packetsRecv == pkts[p.b.index]);
  CHECK(a1.bytesRecv - a0.bytesRecv == bytes[p.b.index]);
  CHECK(pkts[p.a.index] >= 300);
  CHECK(p.b.received.size() == 300);
}

}  // namespace
}  // namespace fips::router::link::test
