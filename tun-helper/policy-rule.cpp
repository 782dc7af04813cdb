// SPDX-License-Identifier: MIT
// IPv6 FIB rule "to <prefix> lookup main" via RTM_NEWRULE / RTM_DELRULE.
// Runs in fips-tun-helper (privileged); acts on the FIPS prefix and a constant priority only.
#include "tun-helper/policy-rule.h"

#include <cerrno>
#include <string>

#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include "tun-helper/tun-error.h"

namespace fips::tunhelper {
namespace {

void putRule(NetlinkMessage& msg, const Ipv6Prefix& dst, uint32_t priority) {
  auto& rule = msg.putHeader<fib_rule_hdr>();
  rule.family = AF_INET6;
  rule.dst_len = dst.length;
  rule.table = RT_TABLE_MAIN;
  rule.action = FR_ACT_TO_TBL;
  msg.putBytes(FRA_DST, &dst.address, sizeof(dst.address));
  msg.putU32(FRA_PRIORITY, priority);
  msg.putU32(FRA_TABLE, RT_TABLE_MAIN);
}

std::string describeRule(const Ipv6Prefix& dst, uint32_t priority) {
  return "rule 'to " + formatPrefix(dst) + " lookup main pref " + std::to_string(priority) + "'";
}

}  // namespace

RuleStatus addMainTableRule(NetlinkSocket& nl, const Ipv6Prefix& dst, uint32_t priority) {
  NetlinkMessage msg(RTM_NEWRULE, NLM_F_CREATE | NLM_F_EXCL);
  putRule(msg, dst, priority);
  std::string what = "add IPv6 " + describeRule(dst, priority);
  NetlinkStatus status = nl.transact(msg, what);
  switch (status.err) {
    case 0:
      return RuleStatus::ADDED;
    case EEXIST:
      return RuleStatus::ALREADY_PRESENT;
    case EAFNOSUPPORT:
    case EOPNOTSUPP:
      return RuleStatus::UNSUPPORTED;
    default:
      throw TunError(describeFailure(what, status));
  }
}

bool deleteMainTableRule(NetlinkSocket& nl, const Ipv6Prefix& dst, uint32_t priority) {
  NetlinkMessage msg(RTM_DELRULE, 0);
  putRule(msg, dst, priority);
  std::string what = "delete IPv6 " + describeRule(dst, priority);
  NetlinkStatus status = nl.transact(msg, what);
  switch (status.err) {
    case 0:
      return true;
    case ENOENT:
    case EAFNOSUPPORT:
    case EOPNOTSUPP:
      return false;
    default:
      throw TunError(describeFailure(what, status));
  }
}

}  // namespace fips::tunhelper
