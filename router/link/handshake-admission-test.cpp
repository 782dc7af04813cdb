// SPDX-License-Identifier: MIT
// msg1 admission (issue #25, failure 5) on a fake millisecond clock: per
// source and per IPv6 /64 buckets, the global bucket's reserve for quiet
// sources, the bounded source table. Test code only.
#include "router/link/handshake-admission.h"

#include <cstdint>

#include <doctest/doctest.h>

namespace fips::router::link {
namespace {

TransportAddr v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
  const uint8_t ip[4] = {a, b, c, d};
  return *TransportAddr::make(1, ip, 2121);
}

TransportAddr v6(uint16_t prefixWord, uint16_t hostWord) {
  uint8_t ip[16] = {0x20, 0x01, 0x0d, 0xb8};
  ip[6] = static_cast<uint8_t>(prefixWord >> 8U);
  ip[7] = static_cast<uint8_t>(prefixWord & 0xFFU);
  ip[14] = static_cast<uint8_t>(hostWord >> 8U);
  ip[15] = static_cast<uint8_t>(hostWord & 0xFFU);
  return *TransportAddr::make(1, ip, 2121);
}

TEST_CASE("admission: one source gets its burst, then its rate, never more") {
  HandshakeAdmission adm(AdmissionConfig{}, 0);  // source 4 burst, 1/s
  const TransportAddr flood = v4(192, 0, 2, 1);
  int admitted = 0;
  for (int i = 0; i < 100; ++i) admitted += adm.admit(flood, 0) == Admission::ADMITTED ? 1 : 0;
  CHECK(admitted == 4);
  CHECK(adm.admit(flood, 0) == Admission::SOURCE_LIMITED);
  // 10,000 msg1/s for 10 s: 1 a second gets through.
  admitted = 0;
  for (uint64_t t = 1; t <= 10'000; ++t) {
    admitted += adm.admit(flood, t) == Admission::ADMITTED ? 1 : 0;
  }
  CHECK(admitted == 10);
}

TEST_CASE("admission: during one source's flood a new source is admitted at once") {
  HandshakeAdmission adm(AdmissionConfig{}, 0);
  const TransportAddr flood = v4(192, 0, 2, 1);
  const TransportAddr peer = v4(198, 51, 100, 7);
  for (uint64_t t = 0; t < 20'000; ++t) {
    adm.admit(flood, t);
    adm.admit(flood, t);
    if (t == 15'000) CHECK(adm.admit(peer, t) == Admission::ADMITTED);
  }
}

TEST_CASE("admission: busy sources cannot take the reserve, a quiet one can") {
  AdmissionConfig cfg;
  cfg.globalBurst = 20;
  cfg.globalRate = 0.001;  // no meaningful refill within the test
  cfg.reserved = 5;
  cfg.sourceBurst = 4;
  cfg.sourceRate = 0.001;
  HandshakeAdmission adm(cfg, 0);
  // Five sources take 3 each: 15 of the 20, down to the reserve.
  for (uint8_t s = 1; s <= 5; ++s) {
    for (int i = 0; i < 3; ++i) CHECK(adm.admit(v4(10, 0, 0, s), 0) == Admission::ADMITTED);
  }
  CHECK(adm.reserveAdmits() == 0);
  // Source 1 has used more than half its bucket: busy, so the reserve is not for it.
  CHECK(adm.admit(v4(10, 0, 0, 1), 0) == Admission::GLOBAL_LIMITED);
  // A source never seen is quiet: it takes from the reserve.
  CHECK(adm.admit(v4(10, 0, 0, 99), 0) == Admission::ADMITTED);
  CHECK(adm.reserveAdmits() == 1);
  // Quiet sources may use the reserve up, one token each at least.
  for (uint8_t s = 100; s < 104; ++s) CHECK(adm.admit(v4(10, 0, 0, s), 0) == Admission::ADMITTED);
  CHECK(adm.admit(v4(10, 0, 0, 200), 0) == Admission::GLOBAL_LIMITED);
  CHECK(adm.reserveAdmits() == 5);
}

TEST_CASE("admission: one IPv6 /64 counts as one source across its addresses") {
  HandshakeAdmission adm(AdmissionConfig{}, 0);  // /64: 16 burst, 4/s
  int admitted = 0;
  int prefixLimited = 0;
  for (uint16_t host = 1; host <= 100; ++host) {
    const Admission a = adm.admit(v6(7, host), 0);
    admitted += a == Admission::ADMITTED ? 1 : 0;
    prefixLimited += a == Admission::PREFIX_LIMITED ? 1 : 0;
  }
  CHECK(admitted == 16);
  CHECK(prefixLimited == 84);
  CHECK(adm.admit(v6(8, 1), 0) == Admission::ADMITTED);  // another /64
}

TEST_CASE("admission: the source table stays within maxSources, least recent evicted") {
  AdmissionConfig cfg;
  cfg.maxSources = 64;
  cfg.globalBurst = 100'000;
  HandshakeAdmission adm(cfg, 0);
  const TransportAddr flood = v4(192, 0, 2, 1);
  for (int i = 0; i < 10; ++i) adm.admit(flood, 0);
  CHECK(adm.admit(flood, 0) == Admission::SOURCE_LIMITED);
  for (uint32_t i = 0; i < 10'000; ++i) {
    adm.admit(v4(10, static_cast<uint8_t>(i >> 16U), static_cast<uint8_t>(i >> 8U),
                 static_cast<uint8_t>(i)),
              1);
    if (i % 16 == 0) adm.admit(flood, 1);  // seen often: never the least recent
    CHECK(adm.tracked() <= 64);
  }
  CHECK(adm.evictions() >= 10'000 - 64);
  CHECK(adm.admit(flood, 1) == Admission::SOURCE_LIMITED);  // still remembered
}

}  // namespace
}  // namespace fips::router::link
