// SPDX-License-Identifier: MIT
// The responder's answer classes (spec 05 §4), on queries built and replies
// parsed with ldns.
#include "router/dns/dns-responder.h"

#include "lib/identity/nip19.h"
#include "router/dns/dns-test-util.h"

namespace fips::router::dns {
namespace {

using test::answerAddress;
using test::buildQuery;
using test::parseReply;
using test::vectorIdentity;

TEST_CASE("AAAA for <npub>.fips: NOERROR, AA, the derived address with the TTL, identity primed") {
  const auto [npub, ipv6] = vectorIdentity(0);
  HostMap hosts;
  auto reply = answerDnsQuery(buildQuery(npub + ".fips", LDNS_RR_TYPE_AAAA, 0xbeef), 300, hosts);
  REQUIRE(reply);
  auto pkt = parseReply(reply->bytes);
  CHECK(ldns_pkt_id(pkt.get()) == 0xbeef);
  CHECK(ldns_pkt_qr(pkt.get()));
  CHECK(ldns_pkt_aa(pkt.get()));
  CHECK_FALSE(ldns_pkt_rd(pkt.get()));  // the reference does not copy RD
  CHECK_FALSE(ldns_pkt_ra(pkt.get()));
  CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NOERROR);
  CHECK(ldns_pkt_qdcount(pkt.get()) == 1);
  REQUIRE(ldns_pkt_ancount(pkt.get()) == 1);
  CHECK(answerAddress(pkt.get(), 0) == ipv6);
  ldns_rr* rr = ldns_rr_list_rr(ldns_pkt_answer(pkt.get()), 0);
  CHECK(ldns_rr_ttl(rr) == 300);
  CHECK(ldns_rr_get_class(rr) == LDNS_RR_CLASS_IN);
  // The answer's owner is compressed to the question name at offset 12.
  const size_t questionEnd = reply->bytes.size() - (2 + 10 + 16);
  CHECK(reply->bytes[questionEnd] == 0xc0);
  CHECK(reply->bytes[questionEnd + 1] == 12);
  REQUIRE(reply->resolved);
  CHECK(identity::encodeNpub(*reply->resolved) == npub);
}

TEST_CASE("names: trailing dot, any case of .fips, upper-case npub") {
  const auto [npub, ipv6] = vectorIdentity(1);
  HostMap hosts;
  for (const std::string& name :
       std::vector<std::string>{npub + ".fips.", npub + ".FIPS", npub + ".Fips"}) {
    auto reply = answerDnsQuery(buildQuery(name, LDNS_RR_TYPE_AAAA), 60, hosts);
    REQUIRE(reply);
    auto pkt = parseReply(reply->bytes);
    REQUIRE(ldns_pkt_ancount(pkt.get()) == 1);
    CHECK(answerAddress(pkt.get(), 0) == ipv6);
  }
  CHECK(fipsLabel("abc.fips.") == "abc");
  CHECK(fipsLabel("a.b.FiPs") == "a.b");
  CHECK_FALSE(fipsLabel("fips"));
  CHECK_FALSE(fipsLabel("abc.fips.com"));
}

TEST_CASE("a hosts-map alias resolves, case-insensitively") {
  const auto [npub, ipv6] = vectorIdentity(2);
  HostMap hosts;
  REQUIRE_FALSE(hosts.insert("gateway", npub));
  auto reply = answerDnsQuery(buildQuery("GateWay.fips", LDNS_RR_TYPE_AAAA), 300, hosts);
  REQUIRE(reply);
  auto pkt = parseReply(reply->bytes);
  REQUIRE(ldns_pkt_ancount(pkt.get()) == 1);
  CHECK(answerAddress(pkt.get(), 0) == ipv6);
  CHECK(reply->resolved);
}

TEST_CASE("non-AAAA for a resolvable name: NOERROR, AA, no answer, nothing primed") {
  const auto [npub, ipv6] = vectorIdentity(0);
  HostMap hosts;
  for (auto type : {LDNS_RR_TYPE_A, LDNS_RR_TYPE_TXT, LDNS_RR_TYPE_ANY}) {
    auto reply = answerDnsQuery(buildQuery(npub + ".fips", type), 300, hosts);
    REQUIRE(reply);
    auto pkt = parseReply(reply->bytes);
    CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NOERROR);
    CHECK(ldns_pkt_aa(pkt.get()));
    CHECK(ldns_pkt_ancount(pkt.get()) == 0);
    CHECK_FALSE(reply->resolved);
  }
}

TEST_CASE("NXDOMAIN with AA: unknown .fips name, bad npub, a name outside .fips") {
  const auto [npub, ipv6] = vectorIdentity(0);
  std::string badChecksum = npub;
  badChecksum.back() = badChecksum.back() == 'q' ? 'p' : 'q';
  HostMap hosts;
  for (const std::string& name : std::vector<std::string>{
           std::string("unknown.fips"), badChecksum + ".fips", std::string("npub1.fips"),
           std::string("example.com"), npub + ".example", std::string(".")}) {
    for (auto type : {LDNS_RR_TYPE_AAAA, LDNS_RR_TYPE_A}) {
      CAPTURE(name);
      auto reply = answerDnsQuery(buildQuery(name, type), 300, hosts);
      REQUIRE(reply);
      auto pkt = parseReply(reply->bytes);
      CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NXDOMAIN);
      CHECK(ldns_pkt_aa(pkt.get()));
      CHECK(ldns_pkt_ancount(pkt.get()) == 0);
      CHECK_FALSE(reply->resolved);
    }
  }
}

// The one SOA record of a section, checked against the zone's values.
void checkSoa(ldns_rr_list* section, uint32_t ttl) {
  REQUIRE(ldns_rr_list_rr_count(section) == 1);
  ldns_rr* rr = ldns_rr_list_rr(section, 0);
  REQUIRE(ldns_rr_get_type(rr) == LDNS_RR_TYPE_SOA);
  CHECK(ldns_rr_ttl(rr) == ttl);
  char* owner = ldns_rdf2str(ldns_rr_owner(rr));
  CHECK(std::string(owner) == "fips.");
  LDNS_FREE(owner);
  REQUIRE(ldns_rr_rd_count(rr) == 7);
  char* mname = ldns_rdf2str(ldns_rr_rdf(rr, 0));
  char* rname = ldns_rdf2str(ldns_rr_rdf(rr, 1));
  CHECK(std::string(mname) == "fips.");
  CHECK(std::string(rname) == "hostmaster.fips.");
  LDNS_FREE(mname);
  LDNS_FREE(rname);
  CHECK(ldns_rdf2native_int32(ldns_rr_rdf(rr, 2)) == DNS_SOA_SERIAL);
  CHECK(ldns_rdf2native_int32(ldns_rr_rdf(rr, 6)) == ttl);  // MINIMUM: the negative TTL
}

TEST_CASE("RFC 2308: NXDOMAIN and NODATA under .fips carry the zone's SOA in authority") {
  const auto [npub, ipv6] = vectorIdentity(0);
  HostMap hosts;
  auto reply = answerDnsQuery(buildQuery("unknown.fips", LDNS_RR_TYPE_AAAA), 300, hosts);
  REQUIRE(reply);
  auto pkt = parseReply(reply->bytes);
  CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NXDOMAIN);
  checkSoa(ldns_pkt_authority(pkt.get()), DNS_NEGATIVE_TTL_MAX);

  reply = answerDnsQuery(buildQuery(npub + ".fips", LDNS_RR_TYPE_A), 30, hosts);
  REQUIRE(reply);
  pkt = parseReply(reply->bytes);
  CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NOERROR);
  CHECK(ldns_pkt_ancount(pkt.get()) == 0);
  checkSoa(ldns_pkt_authority(pkt.get()), 30);  // dns.ttl below the cap

  // A positive answer has no SOA; a name outside the zone gets none either.
  reply = answerDnsQuery(buildQuery(npub + ".fips", LDNS_RR_TYPE_AAAA), 300, hosts);
  REQUIRE(reply);
  CHECK(ldns_pkt_nscount(parseReply(reply->bytes).get()) == 0);
  reply = answerDnsQuery(buildQuery("example.com", LDNS_RR_TYPE_AAAA), 300, hosts);
  REQUIRE(reply);
  pkt = parseReply(reply->bytes);
  CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NXDOMAIN);
  CHECK(ldns_pkt_nscount(pkt.get()) == 0);
}

TEST_CASE("RFC 8020: the apex fips. has children, so it is NOERROR/NODATA, never NXDOMAIN") {
  HostMap hosts;
  for (const std::string& name : {std::string("fips"), std::string("FIPS."), std::string("Fips")}) {
    CAPTURE(name);
    for (auto type : {LDNS_RR_TYPE_AAAA, LDNS_RR_TYPE_A, LDNS_RR_TYPE_NS}) {
      auto reply = answerDnsQuery(buildQuery(name, type), 300, hosts);
      REQUIRE(reply);
      auto pkt = parseReply(reply->bytes);
      CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NOERROR);
      CHECK(ldns_pkt_aa(pkt.get()));
      CHECK(ldns_pkt_ancount(pkt.get()) == 0);
      CHECK_FALSE(reply->resolved);
      checkSoa(ldns_pkt_authority(pkt.get()), DNS_NEGATIVE_TTL_MAX);
    }
  }
  auto reply = answerDnsQuery(buildQuery("fips.", LDNS_RR_TYPE_SOA), 300, hosts);
  REQUIRE(reply);
  auto pkt = parseReply(reply->bytes);
  CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NOERROR);
  checkSoa(ldns_pkt_answer(pkt.get()), DNS_NEGATIVE_TTL_MAX);
  CHECK(ldns_pkt_nscount(pkt.get()) == 0);
  CHECK(isFipsApex("fips."));
  CHECK_FALSE(isFipsApex("a.fips"));
  CHECK_FALSE(isFipsApex("fipss"));
}

TEST_CASE("no reply: garbage, short, no question, Z bit, unknown qtype") {
  HostMap hosts;
  CHECK_FALSE(answerDnsQuery(std::vector<uint8_t>{}, 300, hosts));
  CHECK_FALSE(answerDnsQuery(std::vector<uint8_t>(11, 0), 300, hosts));
  CHECK_FALSE(answerDnsQuery(std::vector<uint8_t>(12, 0), 300, hosts));  // qdcount 0
  const std::vector<uint8_t> text{'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd', '!', '!'};
  CHECK_FALSE(answerDnsQuery(text, 300, hosts));
  auto z = buildQuery("a.fips", LDNS_RR_TYPE_AAAA);
  z[3] |= 0x40;
  CHECK_FALSE(answerDnsQuery(z, 300, hosts));
  auto unknownType = buildQuery("a.fips", static_cast<ldns_rr_type>(65280));
  CHECK_FALSE(answerDnsQuery(unknownType, 300, hosts));
}

TEST_CASE("only the first question counts; EDNS OPT is dropped from the reply") {
  const auto [npub, ipv6] = vectorIdentity(0);
  HostMap hosts;
  // Two questions: unknown first, then the npub: NXDOMAIN, both echoed.
  auto q1 = buildQuery("unknown.fips", LDNS_RR_TYPE_AAAA);
  auto q2 = buildQuery(npub + ".fips", LDNS_RR_TYPE_AAAA);
  std::vector<uint8_t> two(q1);
  two[5] = 2;
  two.insert(two.end(), q2.begin() + 12, q2.end());
  auto reply = answerDnsQuery(two, 300, hosts);
  REQUIRE(reply);
  auto pkt = parseReply(reply->bytes);
  CHECK(ldns_pkt_get_rcode(pkt.get()) == LDNS_RCODE_NXDOMAIN);
  CHECK(ldns_pkt_qdcount(pkt.get()) == 2);

  // EDNS0 OPT (udp size 1232) in the additional section: not in the reply.
  auto edns = buildQuery(npub + ".fips", LDNS_RR_TYPE_AAAA);
  edns[11] = 1;
  const std::vector<uint8_t> opt{0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0};
  edns.insert(edns.end(), opt.begin(), opt.end());
  reply = answerDnsQuery(edns, 300, hosts);
  REQUIRE(reply);
  pkt = parseReply(reply->bytes);
  CHECK(ldns_pkt_arcount(pkt.get()) == 0);
  CHECK(ldns_pkt_edns(pkt.get()) == false);
  CHECK(ldns_pkt_ancount(pkt.get()) == 1);
}

TEST_CASE("a query longer than 512 bytes is cut to 512 before parsing") {
  const auto [npub, ipv6] = vectorIdentity(0);
  HostMap hosts;
  // The query plus one TXT record in the additional section ending at `total`.
  auto withRecordTo = [&](size_t total) {
    auto q = buildQuery(npub + ".fips", LDNS_RR_TYPE_AAAA);
    q[11] = 1;
    const size_t rdlength = total - q.size() - 11;
    const std::vector<uint8_t> head{0,
                                    0,
                                    16,
                                    0,
                                    1,
                                    0,
                                    0,
                                    0,
                                    0,
                                    static_cast<uint8_t>(rdlength >> 8),
                                    static_cast<uint8_t>(rdlength)};
    q.insert(q.end(), head.begin(), head.end());
    q.resize(total, 'x');
    return q;
  };
  CHECK(answerDnsQuery(withRecordTo(512), 300, hosts));
  CHECK_FALSE(answerDnsQuery(withRecordTo(513), 300, hosts));
}

TEST_CASE("opcode is kept (unknown ones become 6); RD and other flags are not copied") {
  HostMap hosts;
  auto q = buildQuery("x.fips", LDNS_RR_TYPE_AAAA);
  q[2] = static_cast<uint8_t>(0x80 | (2 << 3) | 0x03);  // QR, opcode 2, TC, RD
  q[3] = 0xb0;                                          // RA, AD, CD
  auto reply = answerDnsQuery(q, 300, hosts);
  REQUIRE(reply);
  CHECK(reply->bytes[2] == ((0x80 | (2 << 3) | 0x04)));
  CHECK(reply->bytes[3] == 0x03);
  q[2] = static_cast<uint8_t>(9 << 3);
  reply = answerDnsQuery(q, 300, hosts);
  REQUIRE(reply);
  CHECK(reply->bytes[2] == (0x80 | (6 << 3) | 0x04));
}

TEST_CASE("mesh-interface filter: dropped only when arrival and mesh ifindex match") {
  CHECK(isMeshInterfaceQuery(7, 7));
  CHECK_FALSE(isMeshInterfaceQuery(1, 7));
  CHECK_FALSE(isMeshInterfaceQuery(std::nullopt, 7));
  CHECK_FALSE(isMeshInterfaceQuery(7, std::nullopt));
}

}  // namespace
}  // namespace fips::router::dns
