// SPDX-License-Identifier: MIT
// The policy-routing guard: an IPv6 FIB rule "to fd00::/8 lookup main", so that another VPN's
// catch-all rule (Tailscale: "pref 5270 lookup 52", a table with a default route) cannot
// swallow mesh traffic. Runs in fips-tun-helper (privileged); acts on constants only.
#pragma once

#include <cstdint>

#include "tun-helper/link-config.h"
#include "tun-helper/netlink.h"

namespace fips::tunhelper {

// Priority of the rule, as the reference sets it (src/upper/tun.rs, linux configure_interface):
// below Tailscale's catch-all at 5270 (its rules at 5210-5250 match only its own fwmark), far
// below the main-table rule at 32766.
inline constexpr uint32_t FIPS_RULE_PRIORITY = 5265;

enum class RuleStatus {
  ADDED,
  // The same rule existed already (left by an earlier run that crashed).
  ALREADY_PRESENT,
  // The kernel has no IPv6 policy routing (CONFIG_IPV6_MULTIPLE_TABLES off, small OpenWrt
  // builds), so no other rule can capture the prefix either.
  UNSUPPORTED,
};

// Adds "ip -6 rule add to <dst> lookup main pref <priority>". Throws TunError on failures other
// than the ones RuleStatus names.
RuleStatus addMainTableRule(NetlinkSocket& nl, const Ipv6Prefix& dst, uint32_t priority);

// Deletes that rule. Returns false if it was not there (or policy routing is unsupported).
// Throws TunError.
bool deleteMainTableRule(NetlinkSocket& nl, const Ipv6Prefix& dst, uint32_t priority);

}  // namespace fips::tunhelper
