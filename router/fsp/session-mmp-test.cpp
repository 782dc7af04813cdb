// SPDX-License-Identifier: MIT
// Session-layer MMP in the session table (FIPS spec 04 §3.3, the reference's
// session MMP): report generation and its schedule (the first reports as
// soon as they are due, then on the tick), SRTT from the timestamp echo, loss
// from the counters, the modes, a peer's malformed report, on an injected
// clock. Test code only.
#include "router/fsp/fsp-test-util.h"
// fsp-test-util.h must come first (it sets up doctest).
#include "router/fsp/session-test-net.h"

namespace fips::router::fsp {
namespace {

using namespace test;

const std::vector<uint8_t> DATA = {'p', 'i', 'n', 'g'};

struct MmpPair {
  explicit MmpPair(const SessionConfig& cfg = {}) : net(cfg) {
    a = net.add(xkVectors()["keys"]["initiator"]["secret_hex"].get<std::string>());
    b = net.add(xkVectors()["keys"]["responder"]["secret_hex"].get<std::string>());
    net.introduce(a, b);
    REQUIRE(net.send(a, b, DATA) == SendOutcome::QUEUED);
    net.run();
    REQUIRE(info(a).state == SessionState::ESTABLISHED);
    REQUIRE(info(b).state == SessionState::ESTABLISHED);
  }
  SessionInfo info(size_t i) {
    const auto other = net.node(i == a ? b : a).addr;
    return *net.node(i).table.info(other);
  }
  SessionMetrics mmp(size_t i) {
    const auto m = info(i).mmp;
    REQUIRE(m.has_value());
    return *m;
  }
  // Everything on the wire arrives `oneWayMs` after it left.
  void deliver(uint64_t oneWayMs) {
    net.advance(oneWayMs);
    net.run();
  }
  TestNet net;
  size_t a = 0;
  size_t b = 0;
};

TEST_CASE("session mmp: an established session has MMP on the session schedule") {
  MmpPair p;
  const auto m = p.mmp(p.a);
  CHECK(m.mode == link::MmpMode::FULL);
  CHECK_FALSE(m.srttMs.has_value());  // every timestamp was 0: no echo
  CHECK(m.senderIntervalMs == SESSION_MMP_COLD_START_INTERVAL_MS);
  CHECK(m.receiverIntervalMs == SESSION_MMP_COLD_START_INTERVAL_MS);
  // The queued Data, sealed after the handshake, and the first reports with
  // no tick: A's SenderReport after its Data, B's ReceiverReport on it, then
  // B's SenderReport and A's ReceiverReport on what B sent.
  CHECK(m.packetsSent == 3);
  CHECK(m.senderReportsSent == 1);
  CHECK(m.receiverReportsSent == 1);
  const auto mb = p.mmp(p.b);
  CHECK(mb.packetsRecv == 3);
  CHECK(mb.packetsSent == 2);
  CHECK(mb.senderReportsSent == 1);
  CHECK(mb.receiverReportsSent == 1);
}

TEST_CASE("session mmp: the first reports go out at once: an SRTT one round trip after a frame") {
  SessionConfig cfg;
  TestNet net(cfg);
  const size_t a = net.add(xkVectors()["keys"]["initiator"]["secret_hex"].get<std::string>());
  const size_t b = net.add(xkVectors()["keys"]["responder"]["secret_hex"].get<std::string>());
  net.introduce(a, b);
  SessionActions out;
  REQUIRE(net.node(a).table.open(net.node(b).addr, net.now(), net.rng(), out));
  net.collect(a, out);
  net.run();
  REQUIRE(net.node(a).table.info(net.node(b).addr)->state == SessionState::ESTABLISHED);
  CHECK(net.wire().empty());  // no frame yet, so no report
  net.advance(5);
  REQUIRE(net.node(a).table.sendWarmup(net.node(b).addr, net.now(), out));
  net.collect(a, out);
  CHECK(net.wire().size() == 2);  // the CoordsWarmup and A's first SenderReport
  net.advance(20);
  net.runOnce();  // B: its first ReceiverReport on the warmup, its first SenderReport
  CHECK(net.wire().size() == 2);
  net.advance(20);
  net.runOnce();  // A: the SRTT, and its first ReceiverReport
  const auto m = net.node(a).table.info(net.node(b).addr)->mmp;
  REQUIRE(m.has_value());
  REQUIRE(m->srttMs.has_value());
  CHECK(*m->srttMs == doctest::Approx(40.0));  // 20 + 20, no tick on either side
  CHECK(net.wire().size() == 1);
  net.advance(20);
  net.runOnce();
  CHECK(net.wire().empty());  // then the schedule: nothing until a tick finds a report due
  const auto mb = net.node(b).table.info(net.node(a).addr)->mmp;
  REQUIRE(mb.has_value());
  CHECK(mb->srttMs.has_value());
  CHECK(mb->senderReportsSent == 1);
  CHECK(mb->receiverReportsSent == 1);
}

TEST_CASE("session mmp: a ReceiverReport's echo gives the sender an SRTT (RFC 6298)") {
  MmpPair p;  // the first reports went out at 0 ms, echoing no timestamp
  p.net.advance(SESSION_MMP_COLD_START_INTERVAL_MS);
  REQUIRE(p.net.send(p.a, p.b, DATA) == SendOutcome::SENT);
  p.deliver(20);  // A -> B takes 20 ms
  p.net.advance(10);
  p.net.tick(p.b);  // B's next ReceiverReport is due, dwell 10 ms
  CHECK(p.mmp(p.b).receiverReportsSent == 2);
  p.deliver(20);  // B -> A takes 20 ms
  const auto m = p.mmp(p.a);
  CHECK(m.receiverReportsRecv == 2);
  CHECK(m.rttSamples == 1);  // the first report echoed no timestamp
  REQUIRE(m.srttMs.has_value());
  CHECK(*m.srttMs == doctest::Approx(40.0));  // 20 + 20; B's 10 ms dwell is taken out
  CHECK(*m.lastRttMs == 40);
  CHECK(*m.rttvarMs == doctest::Approx(20.0));  // RFC 6298 first sample: R/2
  // Intervals follow SRTT within the session bounds: 2 × 40 and 1 × 40 ms
  // are below the 500 ms floor.
  CHECK(m.senderIntervalMs == SESSION_MMP_MIN_REPORT_INTERVAL_MS);
  CHECK(m.receiverIntervalMs == SESSION_MMP_MIN_REPORT_INTERVAL_MS);
}

TEST_CASE("session mmp: reports keep to the interval and sustain themselves") {
  MmpPair p;  // A's first SenderReport went out at once after its Data
  CHECK(p.mmp(p.a).senderReportsSent == 1);
  CHECK(p.mmp(p.b).senderReportsRecv == 1);
  p.net.advance(SESSION_MMP_COLD_START_INTERVAL_MS - 1);
  p.net.tick(p.a);
  CHECK(p.mmp(p.a).senderReportsSent == 1);  // not before the cold-start interval
  p.net.advance(1);
  p.net.tick(p.a);
  CHECK(p.mmp(p.a).senderReportsSent == 2);  // the previous report was itself a frame
  // Both ends ticking: the reports measure an SRTT with no Data at all.
  for (int step = 0; step < 50; ++step) {
    p.net.advance(100);
    p.net.tick(p.a);
    p.net.tick(p.b);
    p.deliver(15);
  }
  const auto ma = p.mmp(p.a);
  const auto mb = p.mmp(p.b);
  REQUIRE(ma.srttMs.has_value());
  REQUIRE(mb.srttMs.has_value());
  CHECK(*ma.srttMs >= 15.0);
  CHECK(*mb.srttMs >= 15.0);
  CHECK(ma.lossRate == 0.0);
  CHECK(ma.etx == doctest::Approx(1.0));
  // Only Data counts as session activity: reports do not keep it alive.
  CHECK(p.info(p.a).packetsSent == 1);
}

TEST_CASE("session mmp: lost Data shows as loss and ETX in the next report") {
  MmpPair p;  // B reported the first Data at once
  p.net.advance(SESSION_MMP_COLD_START_INTERVAL_MS);
  p.net.tick(p.b);  // and now A's first reports too: the baseline
  p.deliver(10);
  REQUIRE(p.mmp(p.a).receiverReportsRecv == 2);
  for (int i = 0; i < 10; ++i) REQUIRE(p.net.send(p.a, p.b, DATA) == SendOutcome::SENT);
  // Lose 4 of the 10 (not the last: the highest counter must arrive).
  auto& wire = p.net.wire();
  REQUIRE(wire.size() == 10);
  for (size_t i : {7U, 5U, 3U, 1U}) wire.erase(wire.begin() + static_cast<ptrdiff_t>(i));
  p.deliver(10);
  p.net.advance(SESSION_MMP_COLD_START_INTERVAL_MS);
  p.net.tick(p.b);
  p.deliver(10);
  const auto m = p.mmp(p.a);
  CHECK(m.receiverReportsRecv == 3);
  CHECK(m.deliveryForward == doctest::Approx(0.6));
  CHECK(m.lossRate == doctest::Approx(0.4));
  CHECK(m.etx > 1.0);
  // Only an in-order arrival ends a burst: 2, 4, 6 and 8 each open a gap, so
  // the four losses are one burst (the link layer's and reference's rule).
  CHECK(p.mmp(p.b).lossBursts == 1);
}

TEST_CASE("session mmp: lightweight sends no SenderReports, minimal no reports") {
  SessionConfig light;
  light.mmp.mode = link::MmpMode::LIGHTWEIGHT;
  MmpPair l(light);
  l.net.tick(l.a);
  l.net.tick(l.b);
  CHECK(l.mmp(l.a).senderReportsSent == 0);
  CHECK(l.mmp(l.b).receiverReportsSent == 1);

  SessionConfig minimal;
  minimal.mmp.mode = link::MmpMode::MINIMAL;
  MmpPair m(minimal);
  m.net.tick(m.a);
  m.net.tick(m.b);
  CHECK(m.mmp(m.a).senderReportsSent == 0);
  CHECK(m.mmp(m.b).receiverReportsSent == 0);
  CHECK(m.net.wire().size() == 1);  // B's PathMtuNotification only
}

TEST_CASE("session mmp: a replayed ReceiverReport is refused before MMP sees it") {
  MmpPair p;
  p.net.advance(SESSION_MMP_COLD_START_INTERVAL_MS);
  p.net.tick(p.b);
  // Its SenderReport, its ReceiverReport, then a PathMtuNotification.
  REQUIRE(p.net.wire().size() == 3);
  const InFlight report = p.net.wire()[1];
  p.deliver(10);
  REQUIRE(p.mmp(p.a).receiverReportsRecv == 2);
  p.net.wire().push_back(report);
  p.deliver(10);
  CHECK(p.mmp(p.a).receiverReportsRecv == 2);
  CHECK(p.net.node(p.a).table.drops(SessionDrop::DECRYPT_FAILED) == 1);
}

TEST_CASE("session mmp: open() starts a session without data, marked for the probe") {
  SessionConfig cfg;
  TestNet net(cfg);
  const size_t a = net.add(xkVectors()["keys"]["initiator"]["secret_hex"].get<std::string>());
  const size_t b = net.add(xkVectors()["keys"]["responder"]["secret_hex"].get<std::string>());
  SessionActions out;
  CHECK_FALSE(net.node(a).table.open(net.node(b).addr, net.now(), net.rng(), out));  // unknown
  net.introduce(a, b);
  CHECK(net.node(a).table.open(net.node(b).addr, net.now(), net.rng(), out));
  net.collect(a, out);
  CHECK_FALSE(net.node(a).table.open(net.node(b).addr, net.now(), net.rng(), out));  // exists
  net.run();
  auto info = *net.node(a).table.info(net.node(b).addr);
  CHECK(info.state == SessionState::ESTABLISHED);
  CHECK(info.openedForProbe);
  CHECK(info.packetsSent == 0);
  // The probe's warmup: one encrypted frame, which B's receiver reports on
  // at once.
  net.advance(5);
  CHECK(net.node(a).table.sendWarmup(net.node(b).addr, net.now(), out));
  net.collect(a, out);
  net.advance(10);
  net.runOnce();
  net.advance(10);
  net.run();
  info = *net.node(a).table.info(net.node(b).addr);
  REQUIRE(info.mmp.has_value());
  REQUIRE(info.mmp->srttMs.has_value());
  CHECK(*info.mmp->srttMs == doctest::Approx(20.0));
  // The first Data adopts the session for real traffic.
  net.send(a, b, DATA);
  CHECK_FALSE(net.node(a).table.info(net.node(b).addr)->openedForProbe);
}

TEST_CASE("session mmp: closeProbeSession removes only the probe's own untouched session") {
  SessionConfig cfg;
  TestNet net(cfg);
  const size_t a = net.add(xkVectors()["keys"]["initiator"]["secret_hex"].get<std::string>());
  const size_t b = net.add(xkVectors()["keys"]["responder"]["secret_hex"].get<std::string>());
  const NodeAddr bAddr = net.node(b).addr;
  SessionActions out;
  CHECK(net.node(a).table.closeProbeSession(bAddr, 0, out) == ProbeTeardown::GONE);
  net.introduce(a, b);
  REQUIRE(net.node(a).table.open(bAddr, net.now(), net.rng(), out));
  net.collect(a, out);
  net.run();
  const uint64_t created = net.node(a).table.info(bAddr)->createdMs;
  // Another entry (a different creation time) is not the probe's.
  CHECK(net.node(a).table.closeProbeSession(bAddr, created + 1, out) == ProbeTeardown::REPLACED);
  CHECK(net.node(a).table.info(bAddr).has_value());
  CHECK(out.empty());
  CHECK(net.node(a).table.closeProbeSession(bAddr, created, out) == ProbeTeardown::TORN_DOWN);
  CHECK_FALSE(net.node(a).table.info(bAddr).has_value());
  REQUIRE(out.size() == 1);
  CHECK(std::get<SessionDown>(out[0]).reason == SessionCloseReason::PROBE_TEARDOWN);
  out.clear();
  CHECK(net.node(a).table.closeProbeSession(bAddr, created, out) == ProbeTeardown::GONE);

  // Data on the session adopts it: it stays.
  net.advance(100);
  REQUIRE(net.node(a).table.open(bAddr, net.now(), net.rng(), out));
  net.collect(a, out);
  net.run();
  net.send(a, b, DATA);
  const uint64_t again = net.node(a).table.info(bAddr)->createdMs;
  CHECK(net.node(a).table.closeProbeSession(bAddr, again, out) == ProbeTeardown::ADOPTED);
  CHECK(net.node(a).table.info(bAddr).has_value());
  // A session B opened to A is not A's probe's either.
  const uint64_t bSide = net.node(b).table.info(net.node(a).addr)->createdMs;
  CHECK(net.node(b).table.closeProbeSession(net.node(a).addr, bSide, out) ==
        ProbeTeardown::REPLACED);
}

}  // namespace
}  // namespace fips::router::fsp
