// SPDX-License-Identifier: MIT
// FibRule decoding and the capture judgement (see fib-rule.h).
#include "tun-helper/fib-rule.h"

#include <cstring>

#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include <libmnl/libmnl.h>

#include "tun-helper/netlink.h"

namespace fips::tunhelper {
namespace {

// How a rule's selectors meet the mesh traffic this host sends.
enum class Match { ALL, SOME, NONE };

bool prefixContains(const Ipv6Prefix& prefix, const in6_addr& address) {
  for (uint8_t bit = 0; bit < prefix.length; ++bit) {
    const uint8_t mask = static_cast<uint8_t>(0x80 >> (bit % 8));
    if ((prefix.address.s6_addr[bit / 8] & mask) != (address.s6_addr[bit / 8] & mask)) {
      return false;
    }
  }
  return true;
}

// `dst` against fd00::/8: ALL if it covers the whole prefix, SOME if it lies inside it,
// NONE if they are disjoint.
Match dstMatch(const Ipv6Prefix& dst) {
  const Ipv6Prefix mesh = fipsPrefix();
  if (dst.length <= mesh.length)
    return prefixContains(dst, mesh.address) ? Match::ALL : Match::NONE;
  return prefixContains(mesh, dst.address) ? Match::SOME : Match::NONE;
}

Match selectorMatch(const FibRule& rule, const in6_addr& ownAddress) {
  if (rule.l3mdev) return Match::NONE;
  if (rule.src && !prefixContains(*rule.src, ownAddress)) return Match::NONE;
  if (rule.hasFwmark && (rule.fwmark & rule.fwmask) != 0) return Match::NONE;
  if (!rule.iifname.empty() && rule.iifname != "lo") return Match::NONE;
  Match match = rule.dst ? dstMatch(*rule.dst) : Match::ALL;
  if (match == Match::NONE) return match;
  if (!rule.oifname.empty() || rule.narrowed) return Match::SOME;
  return match;
}

std::string prefixText(const std::optional<Ipv6Prefix>& prefix) {
  return prefix ? formatPrefix(*prefix) : std::string("all");
}

std::string actionText(const FibRule& rule) {
  switch (rule.action) {
    case FR_ACT_TO_TBL:
      if (rule.table == RT_TABLE_MAIN) return "lookup main";
      if (rule.table == RT_TABLE_LOCAL) return "lookup local";
      if (rule.table == RT_TABLE_DEFAULT) return "lookup default";
      return "lookup " + std::to_string(rule.table);
    case FR_ACT_GOTO:
      return "goto";
    case FR_ACT_NOP:
      return "nop";
    case FR_ACT_BLACKHOLE:
      return "blackhole";
    case FR_ACT_UNREACHABLE:
      return "unreachable";
    case FR_ACT_PROHIBIT:
      return "prohibit";
    default:
      return "action " + std::to_string(rule.action);
  }
}

std::optional<Ipv6Prefix> prefixAttr(const nlattr& attr, uint8_t length) {
  if (mnl_attr_get_payload_len(&attr) != sizeof(in6_addr)) return std::nullopt;
  Ipv6Prefix prefix;
  std::memcpy(&prefix.address, mnl_attr_get_payload(&attr), sizeof(in6_addr));
  prefix.length = length;
  return prefix;
}

uint32_t u32Attr(const nlattr& attr) {
  if (mnl_attr_get_payload_len(&attr) < sizeof(uint32_t)) return 0;
  return mnl_attr_get_u32(&attr);
}

std::string stringAttr(const nlattr& attr) {
  const auto* data = static_cast<const char*>(mnl_attr_get_payload(&attr));
  return std::string(data, strnlen(data, mnl_attr_get_payload_len(&attr)));
}

}  // namespace

std::string FibRule::text() const {
  std::string out =
      "pref " + std::to_string(priority) + (invert ? " not" : "") + " from " + prefixText(src);
  if (dst) out += " to " + formatPrefix(*dst);
  if (hasFwmark) out += " fwmark " + std::to_string(fwmark) + "/" + std::to_string(fwmask);
  if (!iifname.empty()) out += " iif " + iifname;
  if (!oifname.empty()) out += " oif " + oifname;
  if (narrowed) out += " (and more selectors)";
  if (l3mdev) out += " l3mdev";
  return out + " " + actionText(*this);
}

std::optional<FibRule> parseFibRule(const nlmsghdr& nlh) {
  if (nlh.nlmsg_type != RTM_NEWRULE || nlh.nlmsg_len < NLMSG_LENGTH(sizeof(fib_rule_hdr))) {
    return std::nullopt;
  }
  const auto* hdr = static_cast<const fib_rule_hdr*>(mnl_nlmsg_get_payload(&nlh));
  if (hdr->family != AF_INET6) return std::nullopt;
  FibRule rule;
  rule.action = hdr->action;
  rule.table = hdr->table;
  rule.invert = (hdr->flags & FIB_RULE_INVERT) != 0;
  rule.narrowed = hdr->tos != 0;
  forEachAttr(nlh, sizeof(fib_rule_hdr), [&](const nlattr& attr) {
    switch (mnl_attr_get_type(&attr)) {
      case FRA_PRIORITY:
        rule.priority = u32Attr(attr);
        break;
      case FRA_TABLE:
        rule.table = u32Attr(attr);
        break;
      case FRA_SRC:
        rule.src = prefixAttr(attr, hdr->src_len);
        break;
      case FRA_DST:
        rule.dst = prefixAttr(attr, hdr->dst_len);
        break;
      case FRA_FWMARK:
        rule.hasFwmark = true;
        rule.fwmark = u32Attr(attr);
        if (rule.fwmask == 0) rule.fwmask = UINT32_MAX;
        break;
      case FRA_FWMASK:
        rule.fwmask = u32Attr(attr);
        break;
      case FRA_IIFNAME:
        rule.iifname = stringAttr(attr);
        break;
      case FRA_OIFNAME:
        rule.oifname = stringAttr(attr);
        break;
      case FRA_L3MDEV:
        rule.l3mdev = mnl_attr_get_payload_len(&attr) >= 1 &&
                      *static_cast<const uint8_t*>(mnl_attr_get_payload(&attr)) != 0;
        break;
      case FRA_UID_RANGE:
      case FRA_IP_PROTO:
      case FRA_SPORT_RANGE:
      case FRA_DPORT_RANGE:
      case FRA_TUN_ID:
        rule.narrowed = true;
        break;
      default:
        break;
    }
  });
  return rule;
}

bool isGuardRule(const FibRule& rule) {
  const Ipv6Prefix mesh = fipsPrefix();
  return rule.action == FR_ACT_TO_TBL && rule.table == RT_TABLE_MAIN && !rule.invert && !rule.src &&
         rule.dst && rule.dst->length == mesh.length && prefixContains(mesh, rule.dst->address) &&
         !rule.hasFwmark && rule.iifname.empty() && rule.oifname.empty() && !rule.narrowed &&
         !rule.l3mdev;
}

bool capturesMeshTraffic(const FibRule& rule, const in6_addr& ownAddress) {
  switch (rule.action) {
    case FR_ACT_TO_TBL:
      if (rule.table == RT_TABLE_MAIN || rule.table == RT_TABLE_LOCAL) return false;
      break;
    case FR_ACT_BLACKHOLE:
    case FR_ACT_UNREACHABLE:
    case FR_ACT_PROHIBIT:
      break;
    default:
      return false;
  }
  Match match = selectorMatch(rule, ownAddress);
  if (rule.invert && match != Match::SOME) match = match == Match::ALL ? Match::NONE : Match::ALL;
  return match != Match::NONE;
}

}  // namespace fips::tunhelper
