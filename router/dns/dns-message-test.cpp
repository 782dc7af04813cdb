// SPDX-License-Identifier: MIT
// The DNS codec: decoding rules of the reference's parser, compression on
// encode, round trips.
#include "router/dns/dns-message.h"

#include "router/dns/dns-test-util.h"

namespace fips::router::dns {
namespace {

std::vector<uint8_t> header(uint16_t qd, uint16_t an = 0, uint16_t ns = 0, uint16_t ar = 0) {
  return {0x12,
          0x34,
          0x01,
          0x00,
          static_cast<uint8_t>(qd >> 8),
          static_cast<uint8_t>(qd),
          static_cast<uint8_t>(an >> 8),
          static_cast<uint8_t>(an),
          static_cast<uint8_t>(ns >> 8),
          static_cast<uint8_t>(ns),
          static_cast<uint8_t>(ar >> 8),
          static_cast<uint8_t>(ar)};
}

void append(std::vector<uint8_t>& v, std::initializer_list<uint8_t> bytes) {
  v.insert(v.end(), bytes.begin(), bytes.end());
}

TEST_CASE("decode an ldns-built query") {
  auto wire = test::buildQuery("Host.Example.fips", LDNS_RR_TYPE_AAAA, 7);
  auto m = decodeDnsMessage(wire);
  REQUIRE(m.ok());
  CHECK(m.value().id == 7);
  CHECK((m.value().flags & DNS_FLAG_RD) != 0);
  REQUIRE(m.value().questions.size() == 1);
  CHECK(m.value().questions[0].name.toText() == "Host.Example.fips");
  CHECK(m.value().questions[0].qtype == DNS_TYPE_AAAA);
  CHECK(m.value().questions[0].qclass == DNS_CLASS_IN);
  CHECK(encodeDnsMessage(m.value()) == wire);
}

TEST_CASE("names: backward pointers followed, forward and self pointers refused") {
  auto v = header(2);
  append(v, {1, 'a', 4, 'f', 'i', 'p', 's', 0, 0, 28, 0, 1});  // a.fips at 12
  append(v, {1, 'b', 0xc0, 12, 0, 1, 0, 1});                   // b.a.fips
  auto m = decodeDnsMessage(v);
  REQUIRE(m.ok());
  CHECK(m.value().questions[1].name.toText() == "b.a.fips");

  auto self = header(1);
  append(self, {0xc0, 12, 0, 28, 0, 1});
  CHECK(decodeDnsMessage(self).error() == DnsError::BAD_POINTER);
  auto forward = header(1);
  append(forward, {0xc0, 20, 0, 28, 0, 1, 0, 0});
  CHECK(decodeDnsMessage(forward).error() == DnsError::BAD_POINTER);
}

TEST_CASE("names: label lengths and total length") {
  auto bad = header(1);
  append(bad, {0x40});
  bad.resize(bad.size() + 70, 'a');
  CHECK(decodeDnsMessage(bad).error() == DnsError::BAD_LABEL);

  // 4 labels of 63 bytes: 256 bytes of labels, refused.
  auto longName = header(1);
  for (int i = 0; i < 4; ++i) {
    longName.push_back(63);
    longName.resize(longName.size() + 63, 'a');
  }
  append(longName, {0, 0, 28, 0, 1});
  CHECK(decodeDnsMessage(longName).error() == DnsError::NAME_TOO_LONG);

  // 3 x 63 + 61: 254 bytes of labels, accepted.
  auto maxName = header(1);
  for (int i = 0; i < 3; ++i) {
    maxName.push_back(63);
    maxName.resize(maxName.size() + 63, 'a');
  }
  maxName.push_back(61);
  maxName.resize(maxName.size() + 61, 'a');
  append(maxName, {0, 0, 28, 0, 1});
  CHECK(decodeDnsMessage(maxName).ok());
}

TEST_CASE("header: the Z bit, truncation, counts past the end") {
  auto wire = test::buildQuery("a.fips", LDNS_RR_TYPE_A);
  wire[3] |= 0x40;
  CHECK(decodeDnsMessage(wire).error() == DnsError::RESERVED_FLAG);
  CHECK(decodeDnsMessage(std::vector<uint8_t>(11, 0)).error() == DnsError::TRUNCATED);
  auto more = header(2);
  append(more, {0, 0, 1, 0, 1});
  CHECK(decodeDnsMessage(more).error() == DnsError::TRUNCATED);
}

TEST_CASE("classes and question types the reference refuses") {
  auto q = header(1);
  append(q, {0, 0, 28, 0, 5});  // class 5
  CHECK(decodeDnsMessage(q).error() == DnsError::UNKNOWN_CLASS);
  auto any = header(1);
  append(any, {0, 0, 28, 0x80, 255});  // ANY with the mDNS unicast bit
  CHECK(decodeDnsMessage(any).ok());
  auto t = header(1);
  append(t, {0, 0, 99, 0, 1});  // SPF: not known to simple-dns
  CHECK(decodeDnsMessage(t).error() == DnsError::UNKNOWN_QTYPE);
  auto rr = header(0, 1);
  append(rr, {0, 0, 1, 0, 9, 0, 0, 0, 0, 0, 4, 1, 2, 3, 4});  // record of class 9
  CHECK(decodeDnsMessage(rr).error() == DnsError::UNKNOWN_CLASS);
  auto opt = header(0, 0, 0, 1);
  append(opt, {0, 0, 41, 0x10, 0x00, 0, 0, 0, 0, 0, 0});  // OPT: class is a size
  CHECK(decodeDnsMessage(opt).ok());
}

TEST_CASE("encode compresses repeated suffixes to their first occurrence") {
  DnsMessage m;
  m.questions.push_back({DnsName::fromText("a.b.fips"), DNS_TYPE_AAAA, DNS_CLASS_IN});
  DnsRecord rr;
  rr.owner = DnsName::fromText("c.b.fips");
  rr.type = DNS_TYPE_AAAA;
  rr.rclass = DNS_CLASS_IN;
  rr.rdata.assign(16, 0xfd);
  m.answers.push_back(rr);
  auto wire = encodeDnsMessage(m);
  // question a.b.fips at 12; b.fips at 14; answer: 1 'c' then pointer to 14.
  const std::vector<uint8_t> owner{1, 'c', 0xc0, 14};
  CHECK(std::equal(owner.begin(), owner.end(), wire.begin() + 12 + 14));
  auto back = decodeDnsMessage(wire);
  REQUIRE(back.ok());
  CHECK(back.value() == m);
}

TEST_CASE("text form of names: joined with dots, split skipping empties") {
  const std::vector<std::string> expected{"a", "b"};
  CHECK(DnsName::fromText("a..b.").labels == expected);
  CHECK(DnsName::fromText("").labels.empty());
  CHECK(DnsName{{"x", "y"}}.toText() == "x.y");
}

}  // namespace
}  // namespace fips::router::dns
