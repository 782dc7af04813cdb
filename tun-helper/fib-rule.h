// SPDX-License-Identifier: MIT
// FibRule: one IPv6 policy-routing rule as an RTM_NEWRULE message describes it, and the
// sans-IO judgement of whether it can take mesh traffic (fd00::/8) away from the main table.
// Runs in fips-tun-helper (privileged) and its tests; the messages come from the kernel, the
// one peer of a NETLINK_ROUTE socket, but their contents were chosen by whoever added the rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <linux/netlink.h>

#include "tun-helper/link-config.h"

namespace fips::tunhelper {

// What a rule matches on and does (FRA_* attributes of fib_rules.h), as far as the guard
// cares. Value type.
struct FibRule {
  uint32_t priority = 0;
  // FR_ACT_TO_TBL, FR_ACT_GOTO, FR_ACT_NOP, FR_ACT_BLACKHOLE, FR_ACT_UNREACHABLE,
  // FR_ACT_PROHIBIT.
  uint8_t action = 0;
  uint32_t table = 0;
  // FIB_RULE_INVERT ("not").
  bool invert = false;
  std::optional<Ipv6Prefix> src;
  std::optional<Ipv6Prefix> dst;
  uint32_t fwmark = 0;
  uint32_t fwmask = 0;
  bool hasFwmark = false;
  std::string iifname;
  std::string oifname;
  // Any other selector (uid range, IP protocol, ports, DSCP, tunnel id): the rule matches
  // only part of the traffic it would otherwise match.
  bool narrowed = false;
  // FRA_L3MDEV: the rule looks up the table of a VRF, which mesh traffic never enters.
  bool l3mdev = false;

  // ip-rule(8)'s spelling: "pref 100 from all lookup 100".
  std::string text() const;
};

// Decodes one RTM_NEWRULE message of family AF_INET6; nullopt for anything else (another
// family, a truncated header).
std::optional<FibRule> parseFibRule(const nlmsghdr& nlh);

// The guard's own rule: "to fd00::/8 lookup main" and nothing else, at any priority.
bool isGuardRule(const FibRule& rule);

// Whether `rule`, placed before the main table's route for fd00::/8, can take traffic this
// host sends from `ownAddress` to another mesh node (unmarked, locally originated, so iif
// "lo") elsewhere: a table other than main or local, a blackhole, unreachable or prohibit.
// Rules that match only marked packets (the other VPN's own encapsulated traffic: Tailscale's
// 5210-5250, wg-quick's fwmark rule) or that cannot match fd00::/8 do not.
bool capturesMeshTraffic(const FibRule& rule, const in6_addr& ownAddress);

}  // namespace fips::tunhelper
