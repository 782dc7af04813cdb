// SPDX-License-Identifier: MIT
// Helpers for the DNS unit tests: queries built and replies parsed with
// ldns (an independent DNS implementation), identities from the vectors.
// Test-only; runs in the test process.
#pragma once

#include <arpa/inet.h>
#include <cstdint>
#include <ldns/ldns.h>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "lib/identity/test-util.h"

namespace fips::router::dns::test {

struct PktDeleter {
  void operator()(ldns_pkt* p) const { ldns_pkt_free(p); }
};
using PktPtr = std::unique_ptr<ldns_pkt, PktDeleter>;

// Wire bytes of a query for `name` (presentation form) of `type`, with RD.
inline std::vector<uint8_t> buildQuery(const std::string& name, ldns_rr_type type,
                                       uint16_t id = 0x1234) {
  ldns_rdf* owner = ldns_dname_new_frm_str(name.c_str());
  REQUIRE(owner != nullptr);
  PktPtr pkt(ldns_pkt_query_new(owner, type, LDNS_RR_CLASS_IN, LDNS_RD));
  REQUIRE(pkt);
  ldns_pkt_set_id(pkt.get(), id);
  uint8_t* wire = nullptr;
  size_t size = 0;
  REQUIRE(ldns_pkt2wire(&wire, pkt.get(), &size) == LDNS_STATUS_OK);
  std::vector<uint8_t> out(wire, wire + size);
  LDNS_FREE(wire);
  return out;
}

// Parses reply bytes with ldns; fails the test if ldns cannot.
inline PktPtr parseReply(const std::vector<uint8_t>& bytes) {
  ldns_pkt* pkt = nullptr;
  REQUIRE(ldns_wire2pkt(&pkt, bytes.data(), bytes.size()) == LDNS_STATUS_OK);
  return PktPtr(pkt);
}

// The AAAA address of answer i as text.
inline std::string answerAddress(ldns_pkt* pkt, size_t i) {
  ldns_rr* rr = ldns_rr_list_rr(ldns_pkt_answer(pkt), i);
  REQUIRE(ldns_rr_get_type(rr) == LDNS_RR_TYPE_AAAA);
  ldns_rdf* rdf = ldns_rr_rdf(rr, 0);
  REQUIRE(ldns_rdf_size(rdf) == 16);
  char text[INET6_ADDRSTRLEN] = {};
  REQUIRE(inet_ntop(AF_INET6, ldns_rdf_data(rdf), text, sizeof(text)) != nullptr);
  return text;
}

// (npub, ipv6 text) of the identity vectors' valid entry i.
inline std::pair<std::string, std::string> vectorIdentity(size_t i) {
  const auto v = identity::test::identityVectors()["valid"].at(i);
  return {v["npub"].get<std::string>(), v["ipv6"].get<std::string>()};
}

}  // namespace fips::router::dns::test
