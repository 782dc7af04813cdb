// SPDX-License-Identifier: MIT
// The `.fips` DNS responder, sans-IO (spec 05 §4; the reference's
// src/upper/dns.rs): query bytes and the arrival interface in, reply bytes
// and the identity to prime into the identity cache out. Runs in
// fips-router; queries come from local clients and are untrusted.
//
// Answers, as the reference gives them (only the first question counts),
// plus the zone's SOA where RFC 2308 wants it (the reference sends none):
//   unparseable datagram, or no question      -> no reply
//   arrived on the mesh interface (fips0)     -> no reply
//   AAAA for a resolvable name                -> NOERROR, AA, one AAAA (TTL dns.ttl)
//   other type for a resolvable name          -> NOERROR, AA, no answer, SOA in authority
//   the apex `fips` itself (it has children,
//   RFC 8020: never NXDOMAIN)                 -> NOERROR, AA; SOA as the answer to an SOA
//                                                query, else in authority
//   unknown alias or bad npub under .fips     -> NXDOMAIN, AA, SOA in authority
//   a name outside .fips                      -> NXDOMAIN, AA (no SOA: not our zone)
// A reply keeps the query's id and opcode (3 and 6..15 become 6), sets QR
// and AA only (RD is not copied), echoes every section of the query except
// its first OPT record, and appends the answer.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "lib/crypto/secp256k1-keys.h"
#include "router/dns/dns-message.h"
#include "router/dns/host-map.h"
#include "router/dns/hosts-reloader.h"

namespace fips::router::dns {

// The reference reads queries into a 512-byte buffer: longer datagrams are
// cut to their first 512 bytes before parsing.
inline constexpr size_t DNS_MAX_QUERY = 512;

// The `fips.` zone's SOA (RFC 1035 §3.3.13). Its TTL and MINIMUM, which
// bound how long a resolver caches a negative answer (RFC 2308 §5), are
// dns.ttl but at most DNS_NEGATIVE_TTL_MAX, so an alias added to the hosts
// file is seen within a minute by a caching resolver.
inline constexpr uint32_t DNS_NEGATIVE_TTL_MAX = 60;
inline constexpr std::string_view DNS_SOA_MNAME = "fips";
inline constexpr std::string_view DNS_SOA_RNAME = "hostmaster.fips";
inline constexpr uint32_t DNS_SOA_SERIAL = 1;
inline constexpr uint32_t DNS_SOA_REFRESH = 3600;
inline constexpr uint32_t DNS_SOA_RETRY = 600;
inline constexpr uint32_t DNS_SOA_EXPIRE = 86400;

// True for the zone apex: "fips", any case, with or without a trailing dot.
bool isFipsApex(std::string_view name);

// The zone's SOA record, owner `fips`, for a responder with TTL `ttlSecs`.
DnsRecord fipsSoaRecord(uint32_t ttlSecs);

// The label before a case-insensitive ".fips" suffix, after dropping one
// trailing '.'; nullopt if the name does not end in ".fips".
std::optional<std::string_view> fipsLabel(std::string_view name);

// Resolves "<alias>.fips" through hosts (case-insensitive), else
// "<npub>.fips" directly; nullopt if neither gives a valid key.
std::optional<crypto::PublicKey> resolveFipsName(std::string_view name, const HostMap& hosts);

// A reply to send back, and the identity resolved by an AAAA answer (with
// the even-Y parity assumption, spec 01 §1).
struct DnsReply {
  std::vector<uint8_t> bytes;
  std::optional<crypto::PublicKey> resolved;
};

// One query against a fixed host map; nullopt means no reply.
std::optional<DnsReply> answerDnsQuery(std::span<const uint8_t> query, uint32_t ttlSecs,
                                       const HostMap& hosts);

// True when both are known and equal: the query came in over the mesh TUN
// and is dropped (no alias enumeration from the mesh). Unknown arrival
// (no IPV6_PKTINFO) or no TUN means no filtering.
bool isMeshInterfaceQuery(std::optional<uint32_t> arrivalIfindex,
                          std::optional<uint32_t> meshIfindex);

// Counts of what the responder did (for logs and fipsctl).
struct DnsCounters {
  uint64_t queries = 0;
  uint64_t answered = 0;  // NOERROR with an AAAA
  uint64_t noData = 0;    // NOERROR without an answer
  uint64_t nxdomain = 0;
  uint64_t unparseable = 0;
  uint64_t meshDropped = 0;
};

// The responder of one router: TTL, the mesh interface, the hosts file.
class DnsResponder {
 public:
  DnsResponder(uint32_t ttlSecs, HostsReloader& hosts) : ttl_(ttlSecs), hosts_(hosts) {}

  // Set once the TUN is up (its ifindex); until then nothing is filtered.
  void setMeshIfindex(std::optional<uint32_t> ifindex) { meshIfindex_ = ifindex; }

  // Applies the mesh filter, checks the hosts file for changes, answers.
  std::optional<DnsReply> handle(std::span<const uint8_t> datagram,
                                 std::optional<uint32_t> arrivalIfindex);

  const DnsCounters& counters() const { return counters_; }

 private:
  uint32_t ttl_;
  HostsReloader& hosts_;
  std::optional<uint32_t> meshIfindex_;
  DnsCounters counters_;
};

}  // namespace fips::router::dns
