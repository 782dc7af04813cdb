// SPDX-License-Identifier: MIT
// PolicyGuard: keeps the rule "to fd00::/8 lookup main" ahead of every policy rule that would
// take mesh traffic elsewhere. Another VPN's catch-all ("from all lookup 100 pref 100" with a
// default route in table 100) placed before the reference's fixed pref 5265 sends every mesh
// packet into the other tunnel; the guard moves its rule to one preference below the first such
// rule (5265 when there is none, as the reference) and says which rule it outranked.
// Runs in fips-tun-helper (privileged); acts on the FIPS prefix only, reads the rule list from
// the kernel (docs/design/policy-routing.md).
#pragma once

#include <cstdint>
#include <netinet/in.h>
#include <set>
#include <string>
#include <vector>

#include "tun-helper/fib-rule.h"
#include "tun-helper/netlink.h"
#include "tun-helper/policy-rule.h"

namespace fips::tunhelper {

// Where the guard rule belongs among `rules` (a dump of the IPv6 rule list).
struct GuardPlacement {
  // FIPS_RULE_PRIORITY, or one below the first rule that captures mesh traffic.
  uint32_t priority = FIPS_RULE_PRIORITY;
  // The capturing rules at or before FIPS_RULE_PRIORITY, first first.
  std::vector<FibRule> captures;
  // A capturing rule sits at pref 0, which no rule can precede (the guard then sits at 0,
  // after it, and mesh traffic is still captured).
  bool outranked = false;
};

// Sans-IO: the placement for `rules`, given the node's own address (rules by source).
GuardPlacement placeGuard(const std::vector<FibRule>& rules, const in6_addr& ownAddress);

// What one reassert() did, for the caller's log.
struct GuardReport {
  RuleStatus status = RuleStatus::UNSUPPORTED;
  uint32_t priority = FIPS_RULE_PRIORITY;
  // Set when the rule moved: the priorities it left.
  std::vector<uint32_t> movedFrom;
  // Capturing rules not reported by an earlier call (each is reported once while it exists).
  std::vector<FibRule> newCaptures;
  bool outranked = false;
  // Whether the rule had to be added (it was missing: first start, or someone deleted it).
  bool added = false;
};

// Not copyable or movable.
class PolicyGuard {
 public:
  explicit PolicyGuard(const in6_addr& ownAddress) : ownAddress_(ownAddress) {}
  PolicyGuard(const PolicyGuard&) = delete;
  PolicyGuard& operator=(const PolicyGuard&) = delete;

  // Reads the IPv6 rule list, adds the guard rule where placeGuard() puts it (first, so mesh
  // traffic is never without one) and deletes guard rules at other priorities. Idempotent:
  // with nothing changed it changes nothing. Throws TunError on netlink failures.
  GuardReport reassert(NetlinkSocket& nl);

 private:
  in6_addr ownAddress_;
  // FibRule::text() of the capturing rules reported so far and still present.
  std::set<std::string> reported_;
};

// Every rule of the guard's shape, at any priority (the current list).
std::vector<FibRule> guardRules(NetlinkSocket& nl);

// Deletes every rule of the guard's shape, at any priority. Returns how many. Throws TunError.
int removeGuardRules(NetlinkSocket& nl);

}  // namespace fips::tunhelper
