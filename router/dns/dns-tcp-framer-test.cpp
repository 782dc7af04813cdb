// SPDX-License-Identifier: MIT
// DNS over TCP framing: whole, split and pipelined messages, the zero-length
// refusal, and framing a reply that the responder then answers.
#include "router/dns/dns-tcp-framer.h"

#include "router/dns/dns-responder.h"
#include "router/dns/dns-test-util.h"

namespace fips::router::dns {
namespace {

using test::buildQuery;
using test::parseReply;

TEST_CASE("tcp framing: a message split anywhere comes out whole, pipelined ones in order") {
  const auto q1 = buildQuery("a.fips", LDNS_RR_TYPE_AAAA, 1);
  const auto q2 = buildQuery("b.fips", LDNS_RR_TYPE_A, 2);
  std::vector<uint8_t> stream = DnsTcpFramer::frame(q1);
  const auto f2 = DnsTcpFramer::frame(q2);
  stream.insert(stream.end(), f2.begin(), f2.end());
  CHECK(stream[0] == 0);
  CHECK(stream[1] == q1.size());
  for (size_t cut = 0; cut <= stream.size(); ++cut) {
    CAPTURE(cut);
    DnsTcpFramer framer;
    std::vector<std::vector<uint8_t>> got;
    framer.feed(std::span(stream).first(cut));
    while (auto m = framer.next()) got.push_back(*m);
    framer.feed(std::span(stream).subspan(cut));
    while (auto m = framer.next()) got.push_back(*m);
    REQUIRE(got.size() == 2);
    CHECK(got[0] == q1);
    CHECK(got[1] == q2);
    CHECK(framer.buffered() == 0);
    CHECK_FALSE(framer.broken());
  }
}

TEST_CASE("tcp framing: a zero length breaks the stream; a partial message waits") {
  DnsTcpFramer framer;
  framer.feed(std::vector<uint8_t>{0x01, 0x00, 'x'});  // 256 bytes announced, 1 here
  CHECK_FALSE(framer.next());
  CHECK(framer.buffered() == 3);
  DnsTcpFramer zero;
  zero.feed(std::vector<uint8_t>{0, 0, 0, 5});
  CHECK_FALSE(zero.next());
  CHECK(zero.broken());
  zero.feed(std::vector<uint8_t>{1, 2, 3, 4, 5});
  CHECK_FALSE(zero.next());
}

TEST_CASE("tcp framing: the largest message (65535 bytes) passes, and replies are framed") {
  std::vector<uint8_t> big(65535, 0xab);
  DnsTcpFramer framer;
  framer.feed(DnsTcpFramer::frame(big));
  auto m = framer.next();
  REQUIRE(m);
  CHECK(m->size() == 65535);
  CHECK_THROWS_AS(DnsTcpFramer::frame(std::vector<uint8_t>(65536)), std::logic_error);

  const auto [npub, ipv6] = test::vectorIdentity(0);
  HostMap hosts;
  framer.feed(DnsTcpFramer::frame(buildQuery(npub + ".fips", LDNS_RR_TYPE_AAAA)));
  m = framer.next();
  REQUIRE(m);
  auto reply = answerDnsQuery(*m, 300, hosts);
  REQUIRE(reply);
  CHECK(test::answerAddress(parseReply(reply->bytes).get(), 0) == ipv6);
}

}  // namespace
}  // namespace fips::router::dns
