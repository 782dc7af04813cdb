// SPDX-License-Identifier: MIT
// PolicyGuard (see policy-guard.h).
#include "tun-helper/policy-guard.h"

#include <algorithm>
#include <cerrno>
#include <optional>

#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include "tun-helper/link-config.h"
#include "tun-helper/tun-error.h"

namespace fips::tunhelper {
namespace {

// The IPv6 rule list; nullopt when the kernel has no IPv6 policy routing.
std::optional<std::vector<FibRule>> dumpRules(NetlinkSocket& nl) {
  NetlinkMessage msg(RTM_GETRULE, NLM_F_DUMP);
  msg.putHeader<fib_rule_hdr>().family = AF_INET6;
  std::vector<FibRule> rules;
  NetlinkStatus status = nl.transact(msg, "list IPv6 rules", [&](const nlmsghdr& nlh) {
    if (auto rule = parseFibRule(nlh)) rules.push_back(std::move(*rule));
  });
  if (status.err == EAFNOSUPPORT || status.err == EOPNOTSUPP) return std::nullopt;
  if (status.err != 0) throw TunError(describeFailure("list IPv6 rules", status));
  return rules;
}

}  // namespace

GuardPlacement placeGuard(const std::vector<FibRule>& rules, const in6_addr& ownAddress) {
  GuardPlacement placement;
  for (const auto& rule : rules) {
    if (rule.priority <= FIPS_RULE_PRIORITY && capturesMeshTraffic(rule, ownAddress)) {
      placement.captures.push_back(rule);
    }
  }
  std::stable_sort(placement.captures.begin(), placement.captures.end(),
                   [](const FibRule& a, const FibRule& b) { return a.priority < b.priority; });
  if (!placement.captures.empty()) {
    const uint32_t first = placement.captures.front().priority;
    placement.outranked = first == 0;
    placement.priority = first == 0 ? 0 : first - 1;
  }
  return placement;
}

GuardReport PolicyGuard::reassert(NetlinkSocket& nl) {
  GuardReport report;
  auto rules = dumpRules(nl);
  if (!rules) return report;
  const GuardPlacement placement = placeGuard(*rules, ownAddress_);
  report.priority = placement.priority;
  report.outranked = placement.outranked;

  std::set<std::string> present;
  for (const auto& rule : placement.captures) {
    const std::string text = rule.text();
    present.insert(text);
    if (!reported_.contains(text)) report.newCaptures.push_back(rule);
  }
  reported_ = std::move(present);

  std::vector<uint32_t> held;
  for (const auto& rule : *rules) {
    if (isGuardRule(rule)) held.push_back(rule.priority);
  }
  if (std::find(held.begin(), held.end(), placement.priority) == held.end()) {
    report.status = addMainTableRule(nl, fipsPrefix(), placement.priority);
    if (report.status == RuleStatus::UNSUPPORTED) return report;
    report.added = report.status == RuleStatus::ADDED;
  } else {
    report.status = RuleStatus::ALREADY_PRESENT;
  }
  for (uint32_t priority : held) {
    if (priority == placement.priority) continue;
    deleteMainTableRule(nl, fipsPrefix(), priority);
    report.movedFrom.push_back(priority);
  }
  return report;
}

std::vector<FibRule> guardRules(NetlinkSocket& nl) {
  std::vector<FibRule> out;
  auto rules = dumpRules(nl);
  if (!rules) return out;
  for (auto& rule : *rules) {
    if (isGuardRule(rule)) out.push_back(std::move(rule));
  }
  return out;
}

int removeGuardRules(NetlinkSocket& nl) {
  int removed = 0;
  for (const auto& rule : guardRules(nl)) {
    if (deleteMainTableRule(nl, fipsPrefix(), rule.priority)) ++removed;
  }
  return removed;
}

}  // namespace fips::tunhelper
