// SPDX-License-Identifier: MIT
// Tests of the FMP link message envelopes and the SessionDatagram codec
// (spec 02 §6-§7, spec 03 §2, §4.3, §5): minimum and exact lengths, counts,
// version and size fields, trailing bytes. Test code for fips-router codecs.
#include "router/fmp/link-message.h"

#include "router/fmp/fmp-test-util.h"
#include "router/fmp/session-datagram.h"

namespace fips::router::fmp {
namespace {

using test::ikVectors;
using test::sameBytes;
using test::vecBytes;

std::vector<uint8_t> message(LinkMessageType type, size_t bodyLen, uint8_t fill = 0) {
  return encodeLinkMessage(type, std::vector<uint8_t>(bodyLen, fill));
}

void putLe16(std::vector<uint8_t>& m, size_t off, uint16_t v) {
  m.at(off) = static_cast<uint8_t>(v);
  m.at(off + 1) = static_cast<uint8_t>(v >> 8U);
}

FmpError errorOf(const std::vector<uint8_t>& m) {
  return decodeLinkMessage(m).error();
}
bool accepted(const std::vector<uint8_t>& m) {
  return decodeLinkMessage(m).ok();
}

// TreeAnnounce with n ancestry entries: 1 + 35 + 32n + 64 bytes.
std::vector<uint8_t> treeAnnounce(uint16_t declared, size_t entries) {
  auto m = message(LinkMessageType::TREE_ANNOUNCE, 35 + 32 * entries + 64);
  m[1] = TREE_ANNOUNCE_VERSION;
  putLe16(m, 1 + TREE_ANNOUNCE_COUNT_OFFSET, declared);
  return m;
}

TEST_CASE("linkMessageType knows exactly the nine types of spec 02 §6") {
  const std::vector<uint8_t> known = {0x00, 0x01, 0x02, 0x10, 0x20, 0x30, 0x31, 0x50, 0x51};
  for (unsigned b = 0; b < 256; ++b) {
    const auto t = linkMessageType(static_cast<uint8_t>(b));
    const bool isKnown = std::find(known.begin(), known.end(), b) != known.end();
    CHECK(t.has_value() == isKnown);
    if (t) {
      CHECK(static_cast<unsigned>(*t) == b);
      CHECK(std::string(toString(*t)) != "Unknown");
    } else {
      CHECK(decodeLinkMessage(std::vector<uint8_t>(200, static_cast<uint8_t>(b))).error() ==
            FmpError::UNKNOWN_TYPE);
    }
  }
  CHECK(std::string(toString(LinkMessageType::LOOKUP_RESPONSE)) == "LookupResponse");
}

TEST_CASE("empty message is SHORT; body is everything after the type byte") {
  CHECK(decodeLinkMessage({}).error() == FmpError::SHORT);
  const auto hb = message(LinkMessageType::HEARTBEAT, 0);
  const auto d = decodeLinkMessage(hb);
  REQUIRE(d.ok());
  CHECK(d->type == LinkMessageType::HEARTBEAT);
  CHECK(d->body.empty());
  CHECK(accepted(message(LinkMessageType::HEARTBEAT, 7)));  // the reference ignores a body
}

TEST_CASE("fixed minimums: SessionDatagram 35, reports 47 / 67, Disconnect 1 (trailing ok)") {
  struct Min {
    LinkMessageType type;
    size_t body;
  };
  for (const Min m :
       {Min{LinkMessageType::SESSION_DATAGRAM, 35}, Min{LinkMessageType::SENDER_REPORT, 47},
        Min{LinkMessageType::RECEIVER_REPORT, 67}, Min{LinkMessageType::DISCONNECT, 1}}) {
    CAPTURE(toString(m.type));
    CHECK(errorOf(message(m.type, m.body - 1)) == FmpError::SHORT);
    CHECK(accepted(message(m.type, m.body)));
    CHECK(accepted(message(m.type, m.body + 100)));
  }
}

TEST_CASE("TreeAnnounce envelope (spec 03 §2)") {
  const auto vec = vecBytes(ikVectors()["frames"]["initiator_root_tree_announce_plaintext_body"]);
  const auto d = decodeLinkMessage(vec);
  REQUIRE(d.ok());
  CHECK(d->type == LinkMessageType::TREE_ANNOUNCE);
  CHECK(d->body.size() == 131);
  CHECK(sameBytes(encodeLinkMessage(d->type, d->body), vec));

  CHECK(accepted(treeAnnounce(1, 1)));
  CHECK(accepted(treeAnnounce(3, 3)));
  auto trailing = treeAnnounce(2, 2);
  trailing.push_back(0xEE);
  CHECK(accepted(trailing));
  auto truncated = treeAnnounce(1, 1);
  truncated.pop_back();
  CHECK(errorOf(truncated) == FmpError::SHORT);
  CHECK(errorOf(treeAnnounce(2, 1)) == FmpError::SHORT);
  CHECK(errorOf(treeAnnounce(0xFFFF, 1)) == FmpError::SHORT);
  CHECK(errorOf(treeAnnounce(0, 0)) == FmpError::BAD_COUNT);
  CHECK(errorOf(treeAnnounce(0, 3)) == FmpError::BAD_COUNT);
  auto v2 = treeAnnounce(1, 1);
  v2[1] = 0x02;
  CHECK(errorOf(v2) == FmpError::BAD_VERSION);
  CHECK(errorOf(message(LinkMessageType::TREE_ANNOUNCE, 98, 0x01)) == FmpError::SHORT);
}

TEST_CASE("FilterAnnounce envelope (spec 03 §4.3): exact 1035 bytes") {
  auto good = message(LinkMessageType::FILTER_ANNOUNCE, FILTER_ANNOUNCE_SIZE - 1);
  good[9] = 5;                      // hash_count
  good[10] = FILTER_SIZE_CLASS_V1;  // size_class
  CHECK(accepted(good));
  auto shorter = good;
  shorter.pop_back();
  CHECK(errorOf(shorter) == FmpError::SHORT);
  auto longer = good;
  longer.push_back(0);
  CHECK(errorOf(longer) == FmpError::LONG);
  for (const uint8_t sc : std::initializer_list<uint8_t>{0, 2, 3, 4, 0xFF}) {
    auto b = good;
    b[10] = sc;
    CHECK(errorOf(b) == FmpError::BAD_SIZE_CLASS);
  }
  auto noHash = good;
  noHash[9] = 0;
  CHECK(errorOf(noHash) == FmpError::BAD_HASH_COUNT);
  CHECK(errorOf(message(LinkMessageType::FILTER_ANNOUNCE, 9)) == FmpError::SHORT);
  auto headerOnly = message(LinkMessageType::FILTER_ANNOUNCE, 10);
  headerOnly[10] = 1;
  CHECK(errorOf(headerOnly) == FmpError::SHORT);
}

TEST_CASE("LookupRequest envelope (spec 03 §5.1): >= 45, count >= 1, coords present") {
  auto req = [](uint16_t count, size_t coords) {
    auto m = message(LinkMessageType::LOOKUP_REQUEST, 45 + 16 * coords);
    putLe16(m, 1 + LOOKUP_REQUEST_COUNT_OFFSET, count);
    return m;
  };
  CHECK(errorOf(message(LinkMessageType::LOOKUP_REQUEST, 44)) == FmpError::SHORT);
  CHECK(errorOf(req(0, 0)) == FmpError::BAD_COUNT);
  CHECK(errorOf(req(1, 0)) == FmpError::SHORT);
  CHECK(accepted(req(1, 1)));
  CHECK(accepted(req(2, 2)));
  CHECK(accepted(req(1, 3)));  // trailing bytes after the coordinates are ignored
  CHECK(errorOf(req(3, 2)) == FmpError::SHORT);
}

TEST_CASE("LookupResponse envelope (spec 03 §5.2): >= 92, count >= 1, coords then proof") {
  auto resp = [](uint16_t count, size_t coords, size_t extra = 0) {
    auto m = message(LinkMessageType::LOOKUP_RESPONSE, 28 + 16 * coords + 64 + extra);
    putLe16(m, 1 + LOOKUP_RESPONSE_COUNT_OFFSET, count);
    return m;
  };
  CHECK(errorOf(message(LinkMessageType::LOOKUP_RESPONSE, 91)) == FmpError::SHORT);
  CHECK(errorOf(resp(0, 0)) == FmpError::BAD_COUNT);
  CHECK(errorOf(resp(1, 0)) == FmpError::SHORT);  // 92 bytes, but no room for the proof
  CHECK(accepted(resp(1, 1)));
  CHECK(accepted(resp(4, 4)));
  CHECK(accepted(resp(1, 1, 9)));
  CHECK(errorOf(resp(5, 4)) == FmpError::SHORT);
  CHECK(errorOf(resp(0xFFFF, 1)) == FmpError::SHORT);
}

TEST_CASE("SessionDatagram: decode fields, round trip, minimum") {
  SessionDatagram dg;
  dg.ttl = 64;
  dg.pathMtu = 0x05DC;
  for (size_t i = 0; i < NODE_ADDR_SIZE; ++i) {
    dg.srcAddr[i] = static_cast<uint8_t>(i);
    dg.destAddr[i] = static_cast<uint8_t>(0xF0 + i);
  }
  const std::vector<uint8_t> fsp = {0x01, 0x02, 0x03};
  dg.payload = fsp;
  const auto wire = encodeSessionDatagram(dg);
  REQUIRE(wire.size() == SESSION_DATAGRAM_HEADER_SIZE + 3);
  CHECK(wire[0] == 0x00);
  CHECK(wire[1] == 64);
  CHECK(wire[2] == 0xDC);
  CHECK(wire[3] == 0x05);
  CHECK(wire[4] == 0x00);
  CHECK(wire[20] == 0xF0);
  const auto env = decodeLinkMessage(wire);
  REQUIRE(env.ok());
  CHECK(env->type == LinkMessageType::SESSION_DATAGRAM);
  const auto back = decodeSessionDatagram(env->body);
  REQUIRE(back.ok());
  CHECK(back->ttl == 64);
  CHECK(back->pathMtu == 0x05DC);
  CHECK(back->srcAddr == dg.srcAddr);
  CHECK(back->destAddr == dg.destAddr);
  CHECK(sameBytes(back->payload, fsp));
  CHECK(sameBytes(encodeSessionDatagram(back.value()), wire));

  const auto bare = std::span(wire).subspan(1, 35);
  REQUIRE(decodeSessionDatagram(bare).ok());
  CHECK(decodeSessionDatagram(bare)->payload.empty());
  CHECK(decodeSessionDatagram(bare.first(34)).error() == FmpError::SHORT);
  CHECK(decodeSessionDatagram({}).error() == FmpError::SHORT);
}

}  // namespace
}  // namespace fips::router::fmp
