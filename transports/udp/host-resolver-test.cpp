// SPDX-License-Identifier: MIT
#include "transports/udp/host-resolver.h"

#include <arpa/inet.h>
#include <cstring>
#include <string>

#include <doctest/doctest.h>

#include "privsep/host-name.h"

using fips::privsep::SocketAddress;
using fips::transport::HostResolver;
using fips::transport::ResolveAnswer;
using fips::transport::usableAddresses;

namespace {

// A hand-built getaddrinfo result list.
struct FakeResults {
  std::vector<sockaddr_storage> storage;
  std::vector<addrinfo> infos;

  void add(const char* text) {
    sockaddr_storage s{};
    addrinfo ai{};
    if (std::strchr(text, ':') != nullptr) {
      auto* sin6 = reinterpret_cast<sockaddr_in6*>(&s);
      sin6->sin6_family = AF_INET6;
      REQUIRE(::inet_pton(AF_INET6, text, &sin6->sin6_addr) == 1);
      ai.ai_family = AF_INET6;
      ai.ai_addrlen = sizeof(sockaddr_in6);
    } else {
      auto* sin = reinterpret_cast<sockaddr_in*>(&s);
      sin->sin_family = AF_INET;
      REQUIRE(::inet_pton(AF_INET, text, &sin->sin_addr) == 1);
      ai.ai_family = AF_INET;
      ai.ai_addrlen = sizeof(sockaddr_in);
    }
    storage.push_back(s);
    infos.push_back(ai);
  }
  const addrinfo* list() {
    for (size_t i = 0; i < infos.size(); ++i) {
      infos[i].ai_addr = reinterpret_cast<sockaddr*>(&storage[i]);
      infos[i].ai_next = i + 1 < infos.size() ? &infos[i + 1] : nullptr;
    }
    return infos.empty() ? nullptr : infos.data();
  }
};

std::string text(const SocketAddress& a) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (a.family() == AF_INET6) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&a.storage);
    ::inet_ntop(AF_INET6, &sin6->sin6_addr, buf, sizeof(buf));
    return "[" + std::string(buf) + "]:" + std::to_string(ntohs(sin6->sin6_port));
  }
  const auto* sin = reinterpret_cast<const sockaddr_in*>(&a.storage);
  ::inet_ntop(AF_INET, &sin->sin_addr, buf, sizeof(buf));
  return std::string(buf) + ":" + std::to_string(ntohs(sin->sin_port));
}

}  // namespace

TEST_CASE("resolved addresses: the socket's family, in order, port set, deduplicated") {
  FakeResults r;
  r.add("2001:db8::1");
  r.add("192.0.2.1");
  r.add("2001:db8::1");
  r.add("::ffff:192.0.2.1");
  auto v6 = usableAddresses(r.list(), AF_INET6, 2121);
  REQUIRE(v6.size() == 2);
  CHECK(text(v6[0]) == "[2001:db8::1]:2121");
  CHECK(text(v6[1]) == "[::ffff:192.0.2.1]:2121");
  auto v4 = usableAddresses(r.list(), AF_INET, 9);
  REQUIRE(v4.size() == 1);
  CHECK(text(v4[0]) == "192.0.2.1:9");
  CHECK(usableAddresses(nullptr, AF_INET, 1).empty());
}

TEST_CASE("resolved addresses: at most MAX_RESOLVED_ADDRS") {
  FakeResults r;
  for (int i = 1; i <= 20; ++i) r.add(("192.0.2." + std::to_string(i)).c_str());
  auto out = usableAddresses(r.list(), AF_INET, 1);
  REQUIRE(out.size() == fips::privsep::MAX_RESOLVED_ADDRS);
  CHECK(text(out.back()) == "192.0.2.8:1");
}

// Only "localhost" (from /etc/hosts): a unit test sends no DNS query. The
// failure path is exercised in tests/integration/resolve-test.sh, inside a
// namespace with its own resolv.conf.
TEST_CASE("HostResolver answers on the event loop, in order") {
  fips::privsep::EventBase base;
  std::vector<ResolveAnswer> answers;
  HostResolver resolver(base, AF_INET, [&](ResolveAnswer a) {
    answers.push_back(std::move(a));
    if (answers.size() == 2) base.loopExit();
  });
  resolver.resolve(7, "localhost", 2121);
  resolver.resolve(8, "localhost", 9);
  base.dispatch();
  REQUIRE(answers.size() == 2);
  CHECK(answers[0].id == 7);
  CHECK(answers[0].error.empty());
  REQUIRE(answers[0].addrs.size() >= 1);
  CHECK(text(answers[0].addrs[0]) == "127.0.0.1:2121");
  CHECK(answers[1].id == 8);
  REQUIRE(answers[1].addrs.size() >= 1);
  CHECK(text(answers[1].addrs[0]) == "127.0.0.1:9");
}
