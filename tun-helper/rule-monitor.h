// SPDX-License-Identifier: MIT
// RuleMonitor: tells fips-tun-helper when the IPv6 policy-routing rules change, so the
// guard rule can be put back ahead of a catch-all another VPN adds after we started.
// Runs in fips-tun-helper (privileged); reads rtnetlink notifications (RTNLGRP_IPV6_RULE)
// from the kernel and uses them only as a wake-up: what changed is read back with a dump.
#pragma once

#include <functional>

#include "privsep/libevent.h"

#include "tun-helper/netlink.h"

namespace fips::tunhelper {

// Not copyable or movable.
class RuleMonitor {
 public:
  // Opens a NETLINK_ROUTE socket joined to RTNLGRP_IPV6_RULE and watches it on `base`;
  // onChange runs once per batch of notifications (or after the socket overran, when some
  // were lost). Open it before seccomp. Throws TunError.
  RuleMonitor(privsep::EventBase& base, std::function<void()> onChange);
  RuleMonitor(const RuleMonitor&) = delete;
  RuleMonitor& operator=(const RuleMonitor&) = delete;

 private:
  static void onReadable(evutil_socket_t, short, void* arg);

  MnlSocketPtr sock_;
  std::function<void()> onChange_;
  privsep::EventPtr event_;
};

}  // namespace fips::tunhelper
