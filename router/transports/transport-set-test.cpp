// SPDX-License-Identifier: MIT
// TransportSet against a worker that breaks transport.capnp (issue #22): the
// faulty worker's channel is closed (the worker sees EOF), the fault is
// counted, and the router and the other workers carry on. Real socketpairs
// and a real libevent loop; the test plays the worker's end by hand.
#include "router/transports/transport-set.h"

#include <array>
#include <sys/socket.h>
#include <vector>

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <doctest/doctest.h>

namespace fips::router {
namespace {

// The worker's end of one channel, written to by hand.
struct FakeWorker {
  UniqueFd fd;

  void sendRaw(std::span<const uint8_t> bytes) const {
    REQUIRE(::send(fd.get(), bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size()));
  }
  void send(capnp::MessageBuilder& message) const {
    const auto words = capnp::messageToFlatArray(message);
    const auto bytes = words.asBytes();
    sendRaw(std::span<const uint8_t>(bytes.begin(), bytes.size()));
  }
  void sendBound() const {
    capnp::MallocMessageBuilder msg;
    msg.initRoot<schema::TransportEvent>().initBound().setType("udp");
    send(msg);
  }
  // True once the router closed its end (recv returns 0).
  bool sawEof() const {
    std::array<uint8_t, 4096> buf{};
    for (;;) {
      const ssize_t n = ::recv(fd.get(), buf.data(), buf.size(), MSG_DONTWAIT);
      if (n == 0) return true;
      if (n < 0) return false;  // EAGAIN: still open
    }
  }
};

struct Harness {
  privsep::EventBase base;
  std::vector<std::pair<link::TransportAddr, size_t>> received;
  TransportSet set{base, [this](const link::TransportAddr& from, std::span<const uint8_t> p) {
                     received.emplace_back(from, p.size());
                   }};

  FakeWorker attach(const std::string& name) {
    auto [routerEnd, workerEnd] = privsep::makeChannelPair();
    set.attach(name, std::move(routerEnd));
    return FakeWorker{std::move(workerEnd)};
  }
  void spin() {
    for (int i = 0; i < 10; ++i) event_base_loop(base.get(), EVLOOP_NONBLOCK);
  }
  bool attached(const std::string& name) const {
    for (const auto& w : set.workers()) {
      if (w.name == name) return true;
    }
    return false;
  }
};

void sendDatagram(const FakeWorker& worker) {
  capnp::MallocMessageBuilder msg;
  auto list = msg.initRoot<schema::TransportEvent>().initDatagrams(1);
  const std::array<uint8_t, 4> ip{192, 0, 2, 1};
  list[0].initPeer().setIp(kj::arrayPtr(ip.data(), ip.size()));
  list[0].getPeer().setPort(2121);
  const std::array<uint8_t, 3> payload{1, 2, 3};
  list[0].setPayload(kj::arrayPtr(payload.data(), payload.size()));
  worker.send(msg);
}

TEST_CASE("transport set: datagrams before bound close that worker only, counted") {
  Harness h;
  FakeWorker bad = h.attach("udp");
  FakeWorker good = h.attach("udp/b");
  good.sendBound();
  sendDatagram(bad);  // out of state: bound must come first
  h.spin();
  CHECK(h.set.counters().workerFaults == 1);
  CHECK_FALSE(h.attached("udp"));
  CHECK(bad.sawEof());
  CHECK(h.received.empty());
  // The other worker is untouched and still delivers.
  CHECK(h.attached("udp/b"));
  CHECK_FALSE(good.sawEof());
  sendDatagram(good);
  h.spin();
  CHECK(h.received.size() == 1);
  CHECK(h.set.counters().workerFaults == 1);
}

TEST_CASE("transport set: bytes that are not a capnp message close the worker") {
  Harness h;
  FakeWorker bad = h.attach("udp");
  const std::array<uint8_t, 12> garbage{0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4, 5, 6, 7, 8};
  bad.sendRaw(garbage);
  h.spin();
  CHECK(h.set.counters().workerFaults == 1);
  CHECK_FALSE(h.attached("udp"));
  CHECK(bad.sawEof());
}

TEST_CASE("transport set: a resolved no request waits for closes the worker; a new one attaches") {
  Harness h;
  FakeWorker bad = h.attach("udp");
  bad.sendBound();
  capnp::MallocMessageBuilder msg;
  msg.initRoot<schema::TransportEvent>().initResolved().setId(77);
  bad.send(msg);
  h.spin();
  CHECK(h.set.counters().workerFaults == 1);
  CHECK(bad.sawEof());
  // The supervisor's restarted worker gets the same transport id.
  const uint32_t id = h.set.idFor("udp");
  FakeWorker restarted = h.attach("udp");
  restarted.sendBound();
  h.spin();
  CHECK(h.set.boundId("udp") == id);
}

}  // namespace
}  // namespace fips::router
