// SPDX-License-Identifier: MIT
// Setup and teardown of the configured FIPS TUN interface.
// Runs in fips-tun-helper (privileged). Settings are config-derived and validated here before
// any of them reaches the kernel.
#include "tun-helper/tun-interface.h"

#include "tun-helper/link-config.h"
#include "tun-helper/netlink.h"
#include "tun-helper/tun-error.h"

namespace fips::tunhelper {
namespace {

constexpr uint8_t HOST_PREFIX_LENGTH = 128;

const TunSettings& checked(const TunSettings& settings) {
  if (settings.mtu < IPV6_MIN_MTU) {
    throw TunError("TUN " + settings.name + ": MTU " + std::to_string(settings.mtu) +
                   " is below the IPv6 minimum of " + std::to_string(IPV6_MIN_MTU));
  }
  Ipv6Prefix address{settings.address, HOST_PREFIX_LENGTH};
  if (settings.address.s6_addr[0] != fipsPrefix().address.s6_addr[0]) {
    throw TunError("TUN " + settings.name + ": address " + formatPrefix(address) + " is not in " +
                   formatPrefix(fipsPrefix()));
  }
  return settings;
}

}  // namespace

TunInterface::TunInterface(const TunSettings& settings)
    : device_(checked(settings).name), mtu_(settings.mtu), guard_(settings.address) {
  NetlinkSocket nl;
  LinkRef link{device_.ifindex(), device_.name()};
  setMtu(nl, link, settings.mtu);
  addAddress(nl, link, {settings.address, HOST_PREFIX_LENGTH});
  setLinkUp(nl, link);
  addRoute(nl, link, fipsPrefix());
  if (!hasRoute(nl, link, fipsPrefix())) {
    throw TunError("route " + formatPrefix(fipsPrefix()) + " dev " + device_.name() +
                   " is missing from the main table right after it was added");
  }
  initialRuleReport_ = guard_.reassert(nl);
  holdsRule_ = initialRuleReport_.status != RuleStatus::UNSUPPORTED;
}

GuardReport TunInterface::reassertRule() {
  if (!holdsRule_) return {};
  NetlinkSocket nl;
  return guard_.reassert(nl);
}

TunInterface::~TunInterface() {
  try {
    remove();
  } catch (...) {
    // Nothing to report to from a destructor; device_'s own destructor still deletes the link.
  }
}

void TunInterface::remove() {
  if (holdsRule_) {
    NetlinkSocket nl;
    removeGuardRules(nl);
    holdsRule_ = false;
  }
  device_.remove();
}

bool removeStaleInterface(std::string_view name) {
  bool existed = removeLinkByName(name);
  NetlinkSocket nl;
  removeGuardRules(nl);
  return existed;
}

}  // namespace fips::tunhelper
