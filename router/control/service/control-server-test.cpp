// SPDX-License-Identifier: MIT
// The control thread with a real Unix listening socket and a stand-in data
// plane on the bridge: with jsonCompat, JSON-line clients and Cap'n Proto
// clients share the socket (the first byte decides); oversized and
// malformed JSON requests get an error line and leave the server serving;
// without jsonCompat a JSON client gets no JSON answer. Test-only code.
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

#include <capnp/message.h>
#include <capnp/rpc-twoparty.h>
#include <capnp/serialize.h>
#include <kj/async-io.h>

#include <doctest/doctest.h>

#include "control-bridge.capnp.h"
#include "control.capnp.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/nip19.h"
#include "router/control/json/line.h"
#include "router/control/json/node-json.h"
#include "router/control/jsonline/session.h"
#include "router/control/service/control-thread.h"

namespace fips::router::control {
namespace {

sockaddr_un addressOf(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.data(), path.size());
  return addr;
}

std::string npubOf(uint8_t tag) {
  static const crypto::Secp256k1Context ctx;
  std::array<uint8_t, 32> bytes{};
  bytes[31] = tag;
  return identity::encodeNpub(crypto::SecretKey::fromBytes(ctx, bytes)->publicKey());
}

// Probe targets of the stand-in data plane: SELF is this node; every
// other's first call opens a session (PROBE_SESSION_MS), later calls see it
// established; QUICK's rtt is ok from its third call (a sample taken after
// the second, where the rtt stage started); any other stays at rtt
// "running" (its job runs out its 3 s rtt budget). A teardown call of that
// session answers "torn_down" and is counted.
const std::string& selfNpub() {
  static const std::string npub = npubOf(1);
  return npub;
}
const std::string& quickNpub() {
  static const std::string npub = npubOf(2);
  return npub;
}

constexpr uint64_t PROBE_SESSION_MS = 77;
std::atomic<int> probeTeardowns{0};

void answerProbe(schema::ControlCommand::Probe::Reader probe, schema::ControlReply::Builder reply) {
  static std::map<std::string, uint64_t> calls;  // by npub: the stand-in's thread only
  const std::string npub = probe.getNpub();
  if (npub == selfNpub()) return reply.initResult().setError("cannot probe this node");
  reply.initResult().setOk();
  auto r = reply.initProbe();
  r.setTickMs(100);
  if (probe.getTeardown()) {
    if (probe.getOwnedSessionMs() == PROBE_SESSION_MS) {
      ++probeTeardowns;
      r.setCleanup("torn_down");
    }
    return;
  }
  const uint64_t call = probe.getStartLookup() ? (calls[npub] = 1) : ++calls[npub];
  r.setTargetNpub(npub);
  const uint8_t addr[16] = {0xab};
  r.setTargetNodeAddr(kj::arrayPtr(addr, 16));
  r.setTargetDisplayName("peer");
  r.initAttemptTimeoutsSecs(1).set(0, 1);
  for (auto stage : {r.initBloom(), r.initDiscovery(), r.initPath()}) stage.setVerdict("ok");
  r.setSessionCreatedMs(PROBE_SESSION_MS);
  r.setSessionInitiator(true);
  r.setSessionProbeOnly(true);
  if (probe.getOwnedSessionMs() == 0) {
    r.setSessionOpened(true);
    r.initSession().setVerdict("running");
    r.initRtt().setVerdict("running");
    return;
  }
  r.setSessionPreexisting(true);
  r.setSessionEstablished(true);
  r.initSession().setVerdict("skipped");
  const bool measured = npub == quickNpub() && call >= 3;
  r.setRttSamples(measured ? 1 : 0);
  r.initRtt().setVerdict(measured ? "ok" : "running");
}

// A control thread on a socket in a fresh directory; commands over the
// bridge are answered by a thread that accepts every connect, refuses
// every disconnect and answers probes (answerProbe).
class Harness {
 public:
  explicit Harness(bool jsonCompat) {
    char dir[] = "/tmp/fips-control-test-XXXXXX";
    REQUIRE(::mkdtemp(dir) != nullptr);
    dir_ = dir;
    path_ = dir_ + "/control.sock";
    UniqueFd listen(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    const sockaddr_un addr = addressOf(path_);
    REQUIRE(::bind(listen.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0);
    REQUIRE(::listen(listen.get(), 16) == 0);
    int pair[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) == 0);
    dataPlane_.reset(pair[0]);
    capnp::MallocMessageBuilder msg;
    auto s = msg.initRoot<schema::NodeSnapshot>().initStatus();
    s.setNpub("npub1self");
    s.setState("running");
    snapshots_.publish(msg);
    ControlLimits limits;
    limits.jsonCompat = jsonCompat;
    responder_ = std::thread([this] { respond(); });
    thread_.emplace(std::move(listen), UniqueFd(pair[1]), snapshots_, history_, limits);
  }

  ~Harness() {
    ::shutdown(dataPlane_.get(), SHUT_RDWR);
    responder_.join();
    thread_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Sends `request` on a new connection, half-closes, and returns all the
  // server wrote before closing.
  std::string exchange(const std::string& request) const {
    UniqueFd fd = connectClient();
    size_t sent = 0;
    while (sent < request.size()) {
      ssize_t n = ::send(fd.get(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;  // the server may close on an oversized request
      sent += static_cast<size_t>(n);
    }
    ::shutdown(fd.get(), SHUT_WR);
    std::string out;
    char buf[4096];
    for (;;) {
      ssize_t n = ::recv(fd.get(), buf, sizeof(buf), 0);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    return out;
  }

  Json query(const std::string& request) const {
    const std::string line = exchange(request);
    REQUIRE_MESSAGE(!line.empty(), request);
    CHECK(line.back() == '\n');
    CHECK(line.find('\n') == line.size() - 1);
    Json doc = Json::parse(line, nullptr, false);
    REQUIRE_FALSE(doc.is_discarded());
    return doc;
  }

  const std::string& path() const { return path_; }

 private:
  UniqueFd connectClient() const {
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    timeval timeout{10, 0};  // a hung server fails the test instead of hanging it
    ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    const sockaddr_un addr = addressOf(path_);
    REQUIRE(::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0);
    return fd;
  }

  void respond() {
    kj::Array<capnp::word> buffer = kj::heapArray<capnp::word>(1024);
    for (;;) {
      ssize_t n = ::recv(dataPlane_.get(), buffer.begin(), buffer.asBytes().size(), 0);
      if (n <= 0) return;
      capnp::FlatArrayMessageReader reader(
          buffer.slice(0, static_cast<size_t>(n) / sizeof(capnp::word)));
      auto command = reader.getRoot<schema::ControlCommand>();
      capnp::MallocMessageBuilder msg;
      auto reply = msg.initRoot<schema::ControlReply>();
      reply.setId(command.getId());
      if (command.isConnect()) {
        reply.initResult().setOk();
      } else if (command.isProbe()) {
        answerProbe(command.getProbe(), reply);
      } else {
        reply.initResult().setError("peer not found");
      }
      auto words = capnp::messageToFlatArray(msg);
      ::send(dataPlane_.get(), words.asBytes().begin(), words.asBytes().size(), MSG_NOSIGNAL);
    }
  }

  std::string dir_;
  std::string path_;
  SnapshotCell snapshots_;
  stats::StatsHistory history_;
  UniqueFd dataPlane_;
  std::thread responder_;
  std::optional<ControlThread> thread_;
};

Json error(const std::string& message) {
  return Json{{"status", "error"}, {"message", message}};
}

}  // namespace

TEST_CASE("json_compat: JSON-line queries and commands on the control socket") {
  Harness h(true);
  const Json status = h.query("{\"command\":\"show_status\"}\n");
  CHECK(status["status"] == "ok");
  CHECK(status["data"]["npub"] == "npub1self");
  // No newline before the end of the stream: still one request.
  CHECK(h.query("{\"command\":\"show_status\"}") == status);
  CHECK(h.query(R"({"command":"connect","params":{"npub":"npub1a","address":"10.0.0.1:2121",)"
                R"("transport":"udp"}})"
                "\n") == Json{{"status", "ok"},
                              {"data",
                               {{"npub", "npub1a"},
                                {"address", "10.0.0.1:2121"},
                                {"transport", "udp"},
                                {"refreshed", false},
                                {"already_connected", false},
                                {"already_connecting", false}}}});
  CHECK(h.query("{\"command\":\"disconnect\",\"params\":{\"npub\":\"npub1a\"}}\n") ==
        error("peer not found"));
}

TEST_CASE("json_compat: oversized and malformed requests are refused, the server goes on") {
  Harness h(true);
  CHECK(h.query("{\"command\":\"show_status\",\"x\":\"" + std::string(5000, 'a') + "\"}\n") ==
        error("read error: request too large"));
  CHECK(h.query(std::string(200'000, ' ')) == error("read error: request too large"));
  CHECK(h.query("{\"command\": show_status}\n") == error("invalid request: not JSON"));
  CHECK(h.query("{\"params\":{}}\n") == error("invalid request: missing field `command`"));
  CHECK(h.query("{\"command\":\"show_nothing\"}\n") == error("unknown command: show_nothing"));
  CHECK(h.query("{\"command\":\"show_status\"}\n")["data"]["state"] == "running");
}

TEST_CASE("json_compat: a request whose first byte is not '{' still gets a JSON answer") {
  Harness h(true);
  CHECK(h.query("[]\n") == error("invalid request: expected an object with a \"command\" field"));
  CHECK(h.query("hello\n") == error("invalid request: not JSON"));
  CHECK(h.query(" \t{\"command\":\"show_status\"}\n")["data"]["state"] == "running");
  // The reference reads one line: a leading newline is an empty request.
  CHECK(h.query("\n{\"command\":\"show_status\"}\n") == error("invalid request: not JSON"));
  CHECK(h.query("\"show_status\"\n") ==
        error("invalid request: expected an object with a \"command\" field"));
}

TEST_CASE("the first byte tells a JSON-line client from a Cap'n Proto one") {
  // A Cap'n Proto message starts with its segment count - 1 (LE u32).
  for (int b = 0; b < 0x20; ++b) {
    const bool whitespace = b == '\t' || b == '\n' || b == '\r';
    CHECK_MESSAGE(startsJsonLine(static_cast<kj::byte>(b)) == whitespace, b);
  }
  for (int b = 0x20; b < 0x100; ++b) CHECK_MESSAGE(startsJsonLine(static_cast<kj::byte>(b)), b);
}

TEST_CASE("json_compat: Cap'n Proto clients are still served on the same socket") {
  Harness h(true);
  auto io = kj::setupAsyncIo();
  auto address = io.provider->getNetwork().parseAddress("unix:" + h.path()).wait(io.waitScope);
  auto stream = address->connect().wait(io.waitScope);
  capnp::TwoPartyClient client(*stream);
  auto control = client.bootstrap().castAs<schema::FipsControl>();
  auto response = control.statusRequest().send().wait(io.waitScope);
  CHECK(response.getStatus().getNpub() == "npub1self");
  // And a JSON client right after.
  CHECK(h.query("{\"command\":\"show_status\"}\n")["data"]["npub"] == "npub1self");
}

TEST_CASE("without json_compat a JSON client is told how to turn it on") {
  Harness h(false);
  CHECK(h.query("{\"command\":\"show_status\"}\n") ==
        error("the JSON-line protocol is off on this socket: set node.control.json_compat: true "
              "in the node's config (or use fipsctl)"));
  // Whatever the JSON client's first byte.
  for (const char* request : {"[]\n", " {\"command\":\"show_status\"}\n", "\n", "x"}) {
    CHECK_MESSAGE(h.query(request)["message"] ==
                      "the JSON-line protocol is off on this socket: set "
                      "node.control.json_compat: true in the node's config (or use fipsctl)",
                  request);
  }
  // Cap'n Proto clients are served as before.
  auto io = kj::setupAsyncIo();
  auto address = io.provider->getNetwork().parseAddress("unix:" + h.path()).wait(io.waitScope);
  auto stream = address->connect().wait(io.waitScope);
  capnp::TwoPartyClient client(*stream);
  auto control = client.bootstrap().castAs<schema::FipsControl>();
  CHECK(control.statusRequest().send().wait(io.waitScope).getStatus().getNpub() == "npub1self");
}

TEST_CASE("json_compat: the stats queries are answered from the stats history") {
  Harness h(true);
  const Json list = h.query("{\"command\":\"show_stats_list\"}\n");
  CHECK(list["status"] == "ok");
  CHECK(list["data"]["metrics"][0]["name"] == "mesh_size");
  CHECK(h.query("{\"command\":\"show_stats_peers\"}\n") ==
        Json{{"status", "ok"}, {"data", {{"count", 0}, {"peers", Json::array()}}}});
  const Json series =
      h.query(R"({"command":"show_stats_history","params":{"metric":"peer_count","window":"5s"}})"
              "\n");
  CHECK(series["data"]["metric"] == "peer_count");
  CHECK(series["data"]["granularity_seconds"] == 1);
}

TEST_CASE("json_compat: probe_start, probe_poll until done, probe_cancel, the cap") {
  Harness h(true);
  const auto start = [&](const std::string& npub) {
    return h.query(R"({"command":"probe_start","params":{"npub":")" + npub + "\"}}\n");
  };
  const auto ask = [&](const char* command, uint64_t id) {
    return h.query(std::string(R"({"command":")") + command + R"(","params":{"probe_id":)" +
                   std::to_string(id) + "}}\n");
  };
  const Json started = start(quickNpub());
  REQUIRE(started["status"] == "ok");
  CHECK(started["data"]["probe_id"] == 1);
  CHECK(started["data"]["npub"] == quickNpub());
  CHECK(started["data"]["node_addr"] == "ab000000000000000000000000000000");
  CHECK(started["data"]["display_name"] == "peer");
  CHECK(started["data"]["budget_ms"] == 1000 + 1000 + 5000 + 3000);
  // The job's second call (250 ms on) ends it; poll until then (at most 10 s).
  Json polled;
  for (int i = 0; i < 100; ++i) {
    polled = ask("probe_poll", 1);
    REQUIRE(polled["status"] == "ok");
    if (polled["data"]["state"] == "done") break;
    CHECK(polled["data"]["report"]["overall"] == "running");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(polled["data"]["state"] == "done");
  CHECK(polled["data"]["report"]["overall"] == "ok");
  CHECK(polled["data"]["report"]["probe_id"] == 1);
  CHECK(polled["data"]["report"]["tick_ms"] == 100);
  CHECK(polled["data"]["report"]["rtt"]["samples"] == 1);
  // The session it opened was torn down (a tick after the verdict).
  CHECK(polled["data"]["report"]["cleanup"]["session_created_and_torn_down"] == true);
  CHECK(polled["data"]["report"]["cleanup"]["left_intact_reason"].is_null());
  CHECK(probeTeardowns == 1);
  CHECK(ask("probe_poll", 1) == error("unknown probe id: 1"));  // delivered once

  CHECK(start(selfNpub()) == error("cannot probe this node"));
  // Four slow probes run at once; a fifth is refused until one is cancelled.
  for (uint8_t tag = 10; tag < 14; ++tag) CHECK(start(npubOf(tag))["status"] == "ok");
  CHECK(start(npubOf(14)) == error("too many probes in flight"));
  CHECK(h.query("{\"command\":\"show_status\"}\n")["status"] == "ok");  // others are served
  const Json cancelled = ask("probe_cancel", 3);
  CHECK(cancelled == Json{{"status", "ok"}, {"data", {{"probe_id", 3}, {"cancelled", true}}}});
  const Json report = ask("probe_poll", 3)["data"];
  CHECK(report["state"] == "done");
  CHECK(report["report"]["overall"] == "cancelled");
  // Cancelled while handshaking, or (a slow machine) measuring.
  CHECK((report["report"]["session"]["reason"] == "handshake_timeout" ||
         report["report"]["rtt"]["reason"] == "no_report"));
  // The cancel tore down the session the probe opened before it answered.
  CHECK(report["report"]["cleanup"]["session_created_and_torn_down"] == true);
  CHECK(probeTeardowns == 2);
  CHECK(start(npubOf(14))["status"] == "ok");
  CHECK(ask("probe_cancel", 99) == error("unknown probe id: 99"));
}

}  // namespace fips::router::control
