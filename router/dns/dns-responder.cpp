// SPDX-License-Identifier: MIT
// The `.fips` DNS responder (see dns-responder.h).
#include "router/dns/dns-responder.h"

#include <algorithm>
#include <variant>

#include "router/identity/fips-address.h"
#include "router/identity/nip19.h"
#include "router/identity/node-addr.h"

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

bool endsWithFipsNoCase(std::string_view s) {
  if (s.size() < 5) return false;
  std::string_view tail = s.substr(s.size() - 5);
  static constexpr std::string_view SUFFIX = ".fips";
  return std::equal(tail.begin(), tail.end(), SUFFIX.begin(), [](char a, char b) {
    return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
  });
}

}  // namespace

std::optional<std::string_view> fipsLabel(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  if (!endsWithFipsNoCase(name)) return std::nullopt;
  return name.substr(0, name.size() - 5);
}

std::optional<identity::PublicKey> resolveFipsName(std::string_view name, const HostMap& hosts) {
  auto label = fipsLabel(name);
  if (!label) return std::nullopt;
  if (const auto* key = hosts.find(*label)) return *key;
  auto key = identity::decodeNpub(*label);
  if (auto* k = std::get_if<identity::PublicKey>(&key)) return *k;
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
  const bool aaaa = reply.questions.front().qtype == DNS_TYPE_AAAA;
  auto key = resolveFipsName(qname, hosts);
  reply.flags = replyFlags(reply.flags, !key);
  DnsReply out;
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
