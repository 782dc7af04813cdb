// SPDX-License-Identifier: MIT
// The FSP session table driven end to end in one process (FIPS spec 04
// §2.4-§6): handshake and queued-packet flush, crossing setups, Ack resend,
// msg3 key check, setup admission, resends and timeouts, idle teardown,
// coordinate warmup (CP vs CoordsWarmup), routing signals, lookups, path MTU
// notifications and a session rekey with traffic. Test code only.
#include "router/fsp/fsp-test-util.h"
// fsp-test-util.h must come first (it sets up doctest).
#include "router/fsp/encrypted-message.h"
#include "router/fsp/session-test-net.h"

namespace fips::router::fsp {
namespace {

using namespace test;

std::string secretOf(const char* who) {
  return xkVectors()["keys"][who]["secret_hex"].get<std::string>();
}
const std::string THIRD_SECRET = "c102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1fc0";

const std::vector<uint8_t> HELLO = {'h', 'e', 'l', 'l', 'o'};

// A (vector initiator, the smaller NodeAddr 69e0...) and B (vector responder, 8e30...).
struct Pair {
  explicit Pair(const SessionConfig& cfg = {}) : net(cfg) {
    a = net.add(secretOf("initiator"));
    b = net.add(secretOf("responder"));
  }
  void establish() {
    net.introduce(a, b);
    REQUIRE(net.send(a, b, HELLO) == SendOutcome::QUEUED);
    net.run();
    REQUIRE(state(a, b) == SessionState::ESTABLISHED);
    REQUIRE(state(b, a) == SessionState::ESTABLISHED);
  }
  std::optional<SessionState> state(size_t from, size_t to) {
    const auto i = net.node(from).table.info(net.node(to).addr);
    return i ? std::optional(i->state) : std::nullopt;
  }
  SessionActions out;
  TestNet net;
  size_t a = 0;
  size_t b = 0;
};

TEST_CASE("session: vector keys give the vector NodeAddrs") {
  Pair p;
  CHECK(p.net.node(p.a).addr.toHex() == vecAddrHex("initiator"));
  CHECK(p.net.node(p.b).addr.toHex() == vecAddrHex("responder"));
}

TEST_CASE("session: Setup, Ack, Msg3, then the queued Data arrives with CP coordinates") {
  Pair p;
  p.net.introduce(p.a, p.b);
  CHECK(p.net.send(p.a, p.b, HELLO) == SendOutcome::QUEUED);
  REQUIRE(p.net.wire().size() == 1);
  CHECK(p.net.wire().front().message[0] == 0x01);  // SessionSetup
  CHECK(p.state(p.a, p.b) == SessionState::INITIATING);
  p.net.run();
  CHECK(p.state(p.a, p.b) == SessionState::ESTABLISHED);
  CHECK(p.state(p.b, p.a) == SessionState::ESTABLISHED);
  const auto got = p.net.delivered(p.b);
  REQUIRE(got.size() == 1);
  CHECK(got[0].payload == HELLO);
  CHECK(got[0].srcPort == 1024);
  CHECK(got[0].dstPort == 1024);
  CHECK(got[0].src == p.net.node(p.a).addr);
  CHECK(p.net.count<SessionUp>(p.a) == 1);
  CHECK(p.net.count<SessionUp>(p.b) == 1);
  // The responder learnt the initiator's identity from msg3 (for the TUN path).
  CHECK(p.net.node(p.b).identities.contains(p.net.node(p.a).addr));
  // Reply: B → A works without any queueing.
  CHECK(p.net.send(p.b, p.a, {1, 2, 3}, 256) == SendOutcome::SENT);
  p.net.run();
  REQUIRE(p.net.delivered(p.a).size() == 1);
  CHECK(p.net.delivered(p.a)[0].dstPort == 256);
}

TEST_CASE("session: warmup sends CP on the first 5 Data, then none") {
  Pair p;
  p.establish();  // HELLO used one warmup packet
  for (int i = 0; i < 6; ++i) {
    REQUIRE(p.net.send(p.a, p.b, HELLO) == SendOutcome::SENT);
    const auto& msg = p.net.wire().back().message;
    CHECK(((msg[1] & FLAG_CP) != 0) == (i < 4));
  }
  p.net.run();
  CHECK(p.net.delivered(p.b).size() == 7);
  CHECK(p.net.node(p.a).table.info(p.net.node(p.b).addr)->coordsWarmupRemaining == 0);
  // CP carried both ends' coordinates: B caches A's, never its own address.
  const auto& b = p.net.node(p.b);
  CHECK(b.coords.get(p.net.node(p.a).addr, p.net.now()) != nullptr);
  CHECK(b.coords.get(b.addr, p.net.now()) == nullptr);
}

TEST_CASE("session: CP that would not fit the transport MTU becomes a CoordsWarmup first") {
  Pair p;
  p.establish();
  p.net.node(p.a).table.setTransportMtu(1280);
  // 106 + 4 + 2 × 18 (two one-entry coordinate fields) + payload > 1280.
  const std::vector<uint8_t> big(1280 - 110 - 36 + 1, 0x55);
  REQUIRE(p.net.send(p.a, p.b, big) == SendOutcome::SENT);
  REQUIRE(p.net.wire().size() == 2);
  const auto warmup = decodeEncryptedMessage(p.net.wire()[0].message);
  REQUIRE(warmup.ok());
  CHECK(warmup->coordsPresent());
  CHECK(warmup->payloadLen == FSP_INNER_HEADER_SIZE);  // empty body
  CHECK((p.net.wire()[1].message[1] & FLAG_CP) == 0);
  p.net.run();
  REQUIRE(p.net.delivered(p.b).size() == 2);
  CHECK(p.net.delivered(p.b)[1].payload == big);
}

TEST_CASE("session: crossing setups end in one session; the smaller NodeAddr stays initiator") {
  Pair p;
  p.net.introduce(p.a, p.b);
  p.net.introduce(p.b, p.a);
  CHECK(p.net.send(p.a, p.b, {0xA}) == SendOutcome::QUEUED);
  CHECK(p.net.send(p.b, p.a, {0xB}) == SendOutcome::QUEUED);
  p.net.run();
  CHECK(p.state(p.a, p.b) == SessionState::ESTABLISHED);
  CHECK(p.state(p.b, p.a) == SessionState::ESTABLISHED);
  CHECK(p.net.node(p.a).table.info(p.net.node(p.b).addr)->initiator);
  CHECK_FALSE(p.net.node(p.b).table.info(p.net.node(p.a).addr)->initiator);
  CHECK(p.net.node(p.a).table.drops(SessionDrop::CROSSING_SETUP_WON) == 1);
  REQUIRE(p.net.delivered(p.a).size() == 1);
  REQUIRE(p.net.delivered(p.b).size() == 1);
  CHECK(p.net.delivered(p.a)[0].payload == std::vector<uint8_t>{0xB});
  CHECK(p.net.delivered(p.b)[0].payload == std::vector<uint8_t>{0xA});
}

TEST_CASE("session: a repeated Setup while awaiting msg3 gets the same Ack again") {
  Pair p;
  p.net.introduce(p.a, p.b);
  p.net.send(p.a, p.b, HELLO);
  const auto setup = p.net.wire().front().message;
  auto& b = p.net.node(p.b);
  const auto& aAddr = p.net.node(p.a).addr;
  b.table.onDatagram(aAddr, aAddr, setup, 1280, false, p.net.now(), p.net.rng(), p.out);
  b.table.onDatagram(aAddr, aAddr, setup, 1280, false, p.net.now(), p.net.rng(), p.out);
  REQUIRE(p.out.size() == 2);
  CHECK(std::get<SendFsp>(p.out[0]).message == std::get<SendFsp>(p.out[1]).message);
  CHECK(std::get<SendFsp>(p.out[0]).message[0] == 0x02);
  CHECK(b.table.size() == 1);
}

TEST_CASE("session: msg3 whose static key is not src_addr's is refused") {
  Pair p;
  const size_t c = p.net.add(THIRD_SECRET);
  auto& b = p.net.node(p.b);
  auto& cNode = p.net.node(c);
  const auto& aAddr = p.net.node(p.a).addr;
  // C starts a handshake to B but B sees it arrive with src_addr = A.
  p.net.introduce(c, p.b);
  p.net.send(c, p.b, HELLO);
  auto setup = std::move(p.net.wire().front().message);
  p.net.wire().clear();
  b.table.onDatagram(aAddr, aAddr, setup, 1280, false, p.net.now(), p.net.rng(), p.out);
  REQUIRE(p.out.size() == 1);
  const auto ack = std::get<SendFsp>(p.out[0]).message;
  p.out.clear();
  cNode.table.onDatagram(b.addr, b.addr, ack, 1280, false, p.net.now(), p.net.rng(), p.out);
  const auto msg3 = std::get<SendFsp>(p.out[0]).message;
  CHECK(msg3[0] == 0x03);
  p.out.clear();
  b.table.onDatagram(aAddr, aAddr, msg3, 1280, false, p.net.now(), p.net.rng(), p.out);
  CHECK(b.table.drops(SessionDrop::ADDR_MISMATCH) == 1);
  CHECK(b.table.size() == 0);
  CHECK_FALSE(b.identities.contains(aAddr));
}

TEST_CASE("session: a forged msg3 does not disturb the waiting handshake") {
  Pair p;
  p.net.introduce(p.a, p.b);
  p.net.send(p.a, p.b, HELLO);
  auto& b = p.net.node(p.b);
  const auto& aAddr = p.net.node(p.a).addr;
  auto setup = p.net.wire().front().message;
  p.net.wire().clear();
  b.table.onDatagram(aAddr, aAddr, setup, 1280, false, p.net.now(), p.net.rng(), p.out);
  p.net.collect(p.b, p.out);
  SessionMsg3 forged;
  forged.msg3.fill(0x42);
  const auto bytes = encodeSessionMsg3(forged);
  b.table.onDatagram(aAddr, aAddr, bytes, 1280, false, p.net.now(), p.net.rng(), p.out);
  CHECK(b.table.drops(SessionDrop::HANDSHAKE_FAILED) == 1);
  p.net.run();
  CHECK(p.state(p.b, p.a) == SessionState::ESTABLISHED);
  CHECK(p.net.delivered(p.b).size() == 1);
}

TEST_CASE("session: setups are admitted per link peer (burst, then dropped)") {
  SessionConfig cfg;
  cfg.setupRate.strangerBurst = 2;
  cfg.setupRate.strangerRate = 0.001;
  Pair p(cfg);
  const size_t c = p.net.add(THIRD_SECRET);
  p.net.introduce(p.a, p.b);
  p.net.send(p.a, p.b, HELLO);
  const auto setup = p.net.wire().front().message;
  p.net.wire().clear();
  auto& b = p.net.node(p.b);
  const auto& link = p.net.node(c).addr;  // every setup arrives over C
  for (uint8_t i = 0; i < 3; ++i) {
    std::array<uint8_t, 16> src{};
    src.fill(static_cast<uint8_t>(0x10 + i));
    b.table.onDatagram(NodeAddr(src), link, setup, 1280, false, p.net.now(), p.net.rng(), p.out);
  }
  CHECK(b.table.drops(SessionDrop::SETUP_RATE_LIMITED) == 1);
  CHECK(b.table.size() == 2);
  // Another link peer has its own bucket.
  b.table.onDatagram(p.net.node(p.a).addr, p.net.node(p.a).addr, setup, 1280, false, p.net.now(),
                     p.net.rng(), p.out);
  CHECK(b.table.size() == 3);
}

TEST_CASE("session: Setup resends back off, then the handshake times out") {
  Pair p;
  p.net.introduce(p.a, p.b);
  p.net.send(p.a, p.b, HELLO);
  p.net.send(p.a, p.b, HELLO);
  p.net.wire().clear();  // B never hears anything
  std::vector<uint64_t> resendAt;
  for (uint64_t t = 0; t <= 31'000; t += 100) {
    p.net.tick(p.a);
    if (!p.net.wire().empty()) {
      resendAt.push_back(t);
      p.net.wire().clear();
    }
    p.net.advance(100);
  }
  // 1 s, then 2 s, 4 s, 8 s later (backoff 2); the 30 s handshake timeout
  // ends the attempt before the fifth resend would be due (31 s).
  CHECK(resendAt == std::vector<uint64_t>{1000, 3000, 7000, 15000});
  CHECK(p.net.count<SessionDown>(p.a) == 1);
  REQUIRE(p.net.count<DropPending>(p.a) == 1);
  for (const auto& e : p.net.node(p.a).events) {
    if (const auto* d = std::get_if<DropPending>(&e)) {
      CHECK(d->reason == PendingDropReason::HANDSHAKE_TIMEOUT);
      CHECK(d->packets.size() == 2);
    }
  }
  CHECK(p.net.node(p.a).table.size() == 0);
}

TEST_CASE("session: idle teardown after 90 s without Data; Data keeps it alive") {
  Pair p;
  p.establish();
  p.net.advance(60'000);
  p.net.send(p.a, p.b, HELLO);
  p.net.run();
  p.net.advance(60'000);  // 60 s since the last Data
  p.net.tick(p.a);
  p.net.tick(p.b);
  p.net.run();
  CHECK(p.state(p.a, p.b) == SessionState::ESTABLISHED);
  p.net.advance(30'001);  // 90 s + 1 ms since the last Data; notifications do not count
  p.net.tick(p.a);
  p.net.tick(p.b);
  CHECK_FALSE(p.state(p.a, p.b).has_value());
  CHECK_FALSE(p.state(p.b, p.a).has_value());
  CHECK(p.net.count<SessionDown>(p.a) == 1);
}

TEST_CASE("session: unknown identity starts a lookup; a failed lookup gives the packets back") {
  Pair p;
  CHECK(p.net.send(p.a, p.b, HELLO) == SendOutcome::QUEUED_LOOKUP);
  CHECK(p.net.send(p.a, p.b, HELLO) == SendOutcome::QUEUED);
  CHECK(p.net.count<StartLookup>(p.a) == 1);
  CHECK(p.net.wire().empty());
  auto& a = p.net.node(p.a);
  a.table.onLookupResult(p.net.node(p.b).addr, false, p.net.now(), p.net.rng(), p.out);
  REQUIRE(p.out.size() == 1);
  const auto& d = std::get<DropPending>(p.out[0]);
  CHECK(d.reason == PendingDropReason::NO_ROUTE);
  CHECK(d.packets.size() == 2);
  CHECK(a.table.pending().destinations() == 0);
}

TEST_CASE("session: a successful lookup initiates for the queued packets") {
  Pair p;
  CHECK(p.net.send(p.a, p.b, HELLO) == SendOutcome::QUEUED_LOOKUP);
  p.net.introduce(p.a, p.b);  // the LookupResponse registered the identity
  auto& a = p.net.node(p.a);
  a.table.onLookupResult(p.net.node(p.b).addr, true, p.net.now(), p.net.rng(), p.out);
  p.net.collect(p.a, p.out);
  p.net.run();
  CHECK(p.net.delivered(p.b).size() == 1);
}

TEST_CASE("session: an unroutable Setup is withdrawn and a lookup started, packets kept") {
  Pair p;
  p.net.introduce(p.a, p.b);
  p.net.send(p.a, p.b, HELLO);
  auto& a = p.net.node(p.a);
  a.table.onRouteFailed(p.net.node(p.b).addr, p.out);
  CHECK(a.table.size() == 0);
  REQUIRE(p.out.size() == 1);
  CHECK(std::holds_alternative<StartLookup>(p.out[0]));
  CHECK(a.table.pending().queued(p.net.node(p.b).addr) == 1);
}

TEST_CASE("session: routing signals: admission gate, CoordsWarmup rate limit, warmup reset") {
  Pair p;
  p.establish();
  for (int i = 0; i < 5; ++i) p.net.send(p.a, p.b, HELLO);
  p.net.run();
  auto& a = p.net.node(p.a);
  const auto& bAddr = p.net.node(p.b).addr;
  const NodeAddr reporter = filledAddr(0x77);
  CHECK(a.table.info(bAddr)->coordsWarmupRemaining == 0);

  const routing::RoutingSignal required = routing::CoordsRequired{bAddr, reporter};
  a.table.onRoutingSignal(reporter, required, p.net.now(), p.out);
  CHECK(a.table.info(bAddr)->coordsWarmupRemaining == 5);
  REQUIRE(p.out.size() == 2);  // CoordsWarmup + lookup (identity cached)
  const auto warmup = decodeEncryptedMessage(std::get<SendFsp>(p.out[0]).message);
  REQUIRE(warmup.ok());
  CHECK(warmup->coordsPresent());
  CHECK(std::get<StartLookup>(p.out[1]).dest == bAddr);
  p.out.clear();
  p.net.advance(1999);
  a.table.onRoutingSignal(reporter, required, p.net.now(), p.out);
  CHECK(p.out.size() == 1);  // only the lookup: CoordsWarmup rate limited
  p.out.clear();

  // Forged: names us, or comes from its own dest; unbound: no session.
  a.table.onRoutingSignal(reporter, routing::CoordsRequired{a.addr, reporter}, p.net.now(), p.out);
  a.table.onRoutingSignal(bAddr, required, p.net.now(), p.out);
  a.table.onRoutingSignal(reporter, routing::CoordsRequired{filledAddr(0x99), reporter},
                          p.net.now(), p.out);
  CHECK(a.table.drops(SessionDrop::SIGNAL_FORGED) == 2);
  CHECK(a.table.drops(SessionDrop::SIGNAL_UNBOUND) == 1);
  CHECK(p.out.empty());
}

TEST_CASE("session: PathBroken drops the cached coordinates; MtuExceeded tightens at once") {
  Pair p;
  p.establish();
  auto& a = p.net.node(p.a);
  const auto& bAddr = p.net.node(p.b).addr;
  REQUIRE(a.coords.get(bAddr, p.net.now()) != nullptr);  // from the SessionAck
  a.table.onRoutingSignal(filledAddr(0x77), routing::PathBroken{bAddr, filledAddr(0x77), {}},
                          p.net.now(), p.out);
  CHECK(a.coords.get(bAddr, p.net.now()) == nullptr);
  a.table.seedPathMtu(bAddr, 1400);
  a.table.onRoutingSignal(filledAddr(0x77), routing::MtuExceeded{bAddr, filledAddr(0x77), 255},
                          p.net.now(), p.out);
  CHECK(a.table.info(bAddr)->pathMtu == 1400);
  a.table.onRoutingSignal(filledAddr(0x77), routing::MtuExceeded{bAddr, filledAddr(0x77), 1300},
                          p.net.now(), p.out);
  CHECK(a.table.info(bAddr)->pathMtu == 1300);
}

TEST_CASE("session: the destination reports the observed path MTU to the source") {
  SessionConfig cfg;
  cfg.mmp.mode = link::MmpMode::MINIMAL;  // no MMP reports on the wire, only notifications
  Pair p(cfg);
  p.establish();
  p.net.send(p.a, p.b, HELLO);
  p.net.run(1400);  // datagrams arrive with path_mtu 1400
  p.net.tick(p.b);
  REQUIRE(p.net.wire().size() == 1);
  p.net.run();
  CHECK(p.net.node(p.a).table.info(p.net.node(p.b).addr)->pathMtu == 1400);
  p.net.tick(p.b);
  CHECK(p.net.wire().empty());  // not due again before the interval
  p.net.send(p.a, p.b, HELLO);
  p.net.run(1300);  // a decrease is reported at once
  p.net.tick(p.b);
  p.net.run();
  CHECK(p.net.node(p.a).table.info(p.net.node(p.b).addr)->pathMtu == 1300);
}

TEST_CASE("session: rekey under traffic loses nothing and keeps one session") {
  SessionConfig cfg;
  cfg.rekey.rekey.afterSecs = 40;
  Pair p(cfg);
  p.establish();
  size_t sentToB = 1;
  size_t sentToA = 0;
  size_t setupsWhileEstablished = 0;
  for (int step = 0; step < 2000; ++step) {  // 200 s in 100 ms steps
    p.net.advance(100);
    if (step % 5 == 0) {
      REQUIRE(p.net.send(p.a, p.b, HELLO) == SendOutcome::SENT);
      REQUIRE(p.net.send(p.b, p.a, HELLO) == SendOutcome::SENT);
      ++sentToB;
      ++sentToA;
    }
    p.net.tick(p.a);
    p.net.tick(p.b);
    for (const auto& f : p.net.wire())
      if (f.message[0] == 0x01) ++setupsWhileEstablished;
    p.net.run();
  }
  CHECK(setupsWhileEstablished >= 2);
  CHECK(p.net.delivered(p.b).size() == sentToB);
  CHECK(p.net.delivered(p.a).size() == sentToA);
  CHECK(p.net.node(p.a).table.drops(SessionDrop::DECRYPT_FAILED) == 0);
  CHECK(p.net.node(p.b).table.drops(SessionDrop::DECRYPT_FAILED) == 0);
}

TEST_CASE("session: malformed and out-of-state input is counted, never fatal") {
  Pair p;
  auto& b = p.net.node(p.b);
  const auto& aAddr = p.net.node(p.a).addr;
  auto feed = [&](std::vector<uint8_t> msg) {
    b.table.onDatagram(aAddr, aAddr, msg, 1280, false, p.net.now(), p.net.rng(), p.out);
  };
  feed({});
  feed({0x13, 0, 0, 0});
  feed(std::vector<uint8_t>(FSP_ENCRYPTED_MIN_SIZE, 0));
  feed(concat(fromHex("03004c00004900"), std::vector<uint8_t>(73, 0)));
  feed(concat(fromHex("0004220020"), std::vector<uint8_t>(33, 0)));
  CHECK(b.table.codecErrors(FspError::SHORT) == 1);
  CHECK(b.table.codecErrors(FspError::BAD_VERSION) == 1);
  CHECK(b.table.drops(SessionDrop::UNKNOWN_SESSION) == 2);
  CHECK(b.table.drops(SessionDrop::SIGNAL_UNBOUND) == 1);
  CHECK(p.out.empty());
}

}  // namespace
}  // namespace fips::router::fsp
