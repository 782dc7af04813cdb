// SPDX-License-Identifier: MIT
// TunInterface: the FIPS TUN interface fully configured (MTU, address, up, fd00::/8 route,
// policy-routing guard), and its teardown.
// Runs in fips-tun-helper (privileged). Acts only on config-derived settings (tun.name,
// tun.mtu, the node's own address); never reads packet payloads.
#pragma once

#include <cstdint>
#include <netinet/in.h>
#include <string>
#include <string_view>

#include "tun-helper/policy-guard.h"
#include "tun-helper/tun-device.h"

namespace fips::tunhelper {

// IPv6 minimum link MTU (RFC 8200); the kernel disables IPv6 on a link below it.
inline constexpr uint16_t IPV6_MIN_MTU = 1280;

// What the interface is made from: the config slice and the node's address.
struct TunSettings {
  std::string name = "fips0";
  // Link MTU in bytes, at least IPV6_MIN_MTU.
  uint16_t mtu = IPV6_MIN_MTU;
  // The node's address, fd ‖ NodeAddr[0..15] (spec 05 §1), network byte order; assigned /128.
  in6_addr address{};
};

// The configured interface, set up in the reference's way (src/upper/tun.rs): new TUN device,
// MTU, address/128 with IFA_F_NODAD, link up, route fd00::/8 dev <name> in the main table
// (verified by a route dump), then "to fd00::/8 lookup main" at pref 5265 or, when another
// rule before it would capture mesh traffic, just ahead of that rule (PolicyGuard). The
// destructor or remove() deletes the rule and the link. Resource type: not copyable or movable.
class TunInterface {
 public:
  // Validates the settings and sets the interface up. Throws TunError naming the step that
  // failed; whatever was created is removed again.
  explicit TunInterface(const TunSettings& settings);
  // Tears down like remove(), ignoring errors.
  ~TunInterface();
  TunInterface(const TunInterface&) = delete;
  TunInterface& operator=(const TunInterface&) = delete;

  // The TUN fd, borrowed: send it to the router with SCM_RIGHTS. -1 after remove().
  int fd() const { return device_.fd(); }
  uint32_t ifindex() const { return device_.ifindex(); }
  const std::string& name() const { return device_.name(); }
  // Link MTU in bytes.
  uint16_t mtu() const { return mtu_; }
  // What setting up the policy-routing guard did (for the caller's log).
  const GuardReport& initialRuleReport() const { return initialRuleReport_; }
  // Puts the guard rule back ahead of any rule that would capture mesh traffic (after the
  // rule list changed). Throws TunError.
  GuardReport reassertRule();

  // Deletes the rule and the link. Idempotent. Throws TunError.
  void remove();

 private:
  TunDevice device_;
  uint16_t mtu_;
  PolicyGuard guard_;
  GuardReport initialRuleReport_;
  // Whether remove() still has the rule to delete.
  bool holdsRule_ = false;
};

// Cleanup for the supervisor after fips-tun-helper died: deletes link `name` and the FIPS
// policy rule (at whatever priority the guard had moved it to), whichever exist. Returns whether
// the link existed. Throws TunError.
bool removeStaleInterface(std::string_view name);

}  // namespace fips::tunhelper
