// SPDX-License-Identifier: MIT
// The `.fips` DNS responder (see dns-responder.h).
#include "router/dns/dns-responder.h"

#include <algorithm>
#include <variant>

#include "lib/identity/fips-address.h"
#include "lib/identity/nip19.h"
#include "lib/identity/node-addr.h"

namespace fips::router::dns {

namespace {

constexpr uint16_t OPCODE_RESERVED = 6;  // simple-dns writes unknown opcodes as 6

uint16_t replyFlags(uint16_t queryFlags, bool nxdomain) {
  uint16_t opcode = static_cast<uint16_t>((queryFlags & DNS_OPCODE_MASK) >> 11);
  if (opcode == 3 || opcode > 5) opcode = OPCODE_RESERVED;
  uint16_t flags = DNS_FLAG_QR | DNS_FLAG_AA | static_cast<uint16_t>(opcode << 11);
  if (nxdomain) flags |= DNS_RCODE_NXDOMAIN;
  return flags;
}

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

void putU32(std::vector<uint8_t>& out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(value >> shift));
}

// A name in uncompressed wire form (RFC 1035 §3.1), for rdata.
void putName(std::vector<uint8_t>& out, std::string_view text) {
  for (const auto& label : DnsName::fromText(text).labels) {
    out.push_back(static_cast<uint8_t>(label.size()));
    out.insert(out.end(), label.begin(), label.end());
  }
  out.push_back(0);
}

bool endsWithFipsNoCase(std::string_view s) {
  if (s.size() < 5) return false;
  std::string_view tail = s.substr(s.size() - 5);
  static constexpr std::string_view SUFFIX = ".fips";
  return std::equal(tail.begin(), tail.end(), SUFFIX.begin(),
                    [](char a, char b) { return lower(a) == b; });
}

}  // namespace

std::optional<std::string_view> fipsLabel(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  if (!endsWithFipsNoCase(name)) return std::nullopt;
  return name.substr(0, name.size() - 5);
}

bool isFipsApex(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  static constexpr std::string_view APEX = "fips";
  return name.size() == APEX.size() && std::equal(name.begin(), name.end(), APEX.begin(),
                                                  [](char a, char b) { return lower(a) == b; });
}

DnsRecord fipsSoaRecord(uint32_t ttlSecs) {
  const uint32_t negativeTtl = std::min(ttlSecs, DNS_NEGATIVE_TTL_MAX);
  DnsRecord rr;
  rr.owner = DnsName::fromText("fips");
  rr.type = DNS_TYPE_SOA;
  rr.rclass = DNS_CLASS_IN;
  rr.ttl = negativeTtl;
  putName(rr.rdata, DNS_SOA_MNAME);
  putName(rr.rdata, DNS_SOA_RNAME);
  for (uint32_t v : {DNS_SOA_SERIAL, DNS_SOA_REFRESH, DNS_SOA_RETRY, DNS_SOA_EXPIRE, negativeTtl}) {
    putU32(rr.rdata, v);
  }
  return rr;
}

std::optional<crypto::PublicKey> resolveFipsName(std::string_view name, const HostMap& hosts) {
  auto label = fipsLabel(name);
  if (!label) return std::nullopt;
  if (const auto* key = hosts.find(*label)) return *key;
  auto key = identity::decodeNpub(*label);
  if (key.ok()) return key.value();
  return std::nullopt;
}

std::optional<DnsReply> answerDnsQuery(std::span<const uint8_t> query, uint32_t ttlSecs,
                                       const HostMap& hosts) {
  auto decoded = decodeDnsMessage(query.first(std::min(query.size(), DNS_MAX_QUERY)));
  if (!decoded.ok() || decoded.value().questions.empty()) return std::nullopt;
  DnsMessage reply = std::move(decoded.value());
  auto opt = std::find_if(reply.additional.begin(), reply.additional.end(),
                          [](const DnsRecord& rr) { return rr.type == DNS_TYPE_OPT; });
  if (opt != reply.additional.end()) reply.additional.erase(opt);

  const std::string qname = reply.questions.front().name.toText();
  const uint16_t qtype = reply.questions.front().qtype;
  const bool aaaa = qtype == DNS_TYPE_AAAA;
  DnsReply out;
  if (isFipsApex(qname)) {  // RFC 8020: the apex exists (it has children), NODATA at most
    reply.flags = replyFlags(reply.flags, false);
    DnsRecord soa = fipsSoaRecord(ttlSecs);
    if (qtype == DNS_TYPE_SOA) {
      soa.owner = DnsName::fromText(qname);
      reply.answers.push_back(std::move(soa));
    } else {
      reply.authority.push_back(std::move(soa));
    }
    out.bytes = encodeDnsMessage(reply);
    return out;
  }
  auto key = resolveFipsName(qname, hosts);
  reply.flags = replyFlags(reply.flags, !key);
  if (key && aaaa) {
    auto address = identity::FipsAddress::fromNodeAddr(identity::NodeAddr::fromPublicKey(*key));
    DnsRecord rr;
    rr.owner = DnsName::fromText(qname);
    rr.type = DNS_TYPE_AAAA;
    rr.rclass = DNS_CLASS_IN;
    rr.ttl = ttlSecs;
    rr.rdata.assign(address.bytes().begin(), address.bytes().end());
    reply.answers.push_back(std::move(rr));
    out.resolved = *key;
  } else if (fipsLabel(qname)) {
    // NXDOMAIN or NODATA in our zone: the SOA says for how long (RFC 2308 §3).
    reply.authority.push_back(fipsSoaRecord(ttlSecs));
  }
  out.bytes = encodeDnsMessage(reply);
  return out;
}

bool isMeshInterfaceQuery(std::optional<uint32_t> arrivalIfindex,
                          std::optional<uint32_t> meshIfindex) {
  return arrivalIfindex && meshIfindex && *arrivalIfindex == *meshIfindex;
}

std::optional<DnsReply> DnsResponder::handle(std::span<const uint8_t> datagram,
                                             std::optional<uint32_t> arrivalIfindex) {
  ++counters_.queries;
  if (isMeshInterfaceQuery(arrivalIfindex, meshIfindex_)) {
    ++counters_.meshDropped;
    return std::nullopt;
  }
  hosts_.checkReload();
  auto reply = answerDnsQuery(datagram, ttl_, hosts_.hosts());
  if (!reply) {
    ++counters_.unparseable;
  } else if (reply->resolved) {
    ++counters_.answered;
  } else if ((reply->bytes[3] & DNS_RCODE_MASK) == DNS_RCODE_NXDOMAIN) {
    ++counters_.nxdomain;
  } else {
    ++counters_.noData;
  }
  return reply;
}

}  // namespace fips::router::dns
