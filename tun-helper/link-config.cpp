// SPDX-License-Identifier: MIT
// Link and IPv6 configuration over rtnetlink.
// Runs in fips-tun-helper (privileged). Requests carry config-derived values only; replies
// come from the kernel.
#include "tun-helper/link-config.h"

#include <arpa/inet.h>
#include <array>
#include <cerrno>
#include <cstring>

#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "tun-helper/tun-error.h"

namespace fips::tunhelper {
namespace {

ifinfomsg& putLinkHeader(NetlinkMessage& msg, uint32_t index) {
  auto& ifi = msg.putHeader<ifinfomsg>();
  ifi.ifi_family = AF_UNSPEC;
  ifi.ifi_index = static_cast<int>(index);
  return ifi;
}

std::string linkKind(const nlattr& linkInfo) {
  std::string kind;
  forEachNested(linkInfo, [&kind](const nlattr& attr) {
    if (mnl_attr_get_type(&attr) == IFLA_INFO_KIND &&
        mnl_attr_validate(&attr, MNL_TYPE_STRING) == 0) {
      kind.assign(static_cast<const char*>(mnl_attr_get_payload(&attr)),
                  strnlen(static_cast<const char*>(mnl_attr_get_payload(&attr)),
                          mnl_attr_get_payload_len(&attr)));
    }
  });
  return kind;
}

// Whether one RTM_NEWROUTE reply of a dump is `dst` dev ifindex in the main table.
bool isRoute(const nlmsghdr& nlh, uint32_t ifindex, const Ipv6Prefix& dst) {
  if (mnl_nlmsg_get_payload_len(&nlh) < sizeof(rtmsg)) return false;
  const auto* rtm = static_cast<const rtmsg*>(mnl_nlmsg_get_payload(&nlh));
  if (rtm->rtm_family != AF_INET6 || rtm->rtm_dst_len != dst.length) return false;
  uint32_t table = rtm->rtm_table;
  bool dstMatches = dst.length == 0;
  bool oifMatches = false;
  forEachAttr(nlh, sizeof(rtmsg), [&](const nlattr& attr) {
    switch (mnl_attr_get_type(&attr)) {
      case RTA_TABLE:
        if (mnl_attr_validate(&attr, MNL_TYPE_U32) == 0) table = mnl_attr_get_u32(&attr);
        break;
      case RTA_OIF:
        oifMatches =
            mnl_attr_validate(&attr, MNL_TYPE_U32) == 0 && mnl_attr_get_u32(&attr) == ifindex;
        break;
      case RTA_DST:
        dstMatches = mnl_attr_get_payload_len(&attr) == sizeof(in6_addr) &&
                     std::memcmp(mnl_attr_get_payload(&attr), &dst.address, sizeof(in6_addr)) == 0;
        break;
      default:
        break;
    }
  });
  return table == RT_TABLE_MAIN && dstMatches && oifMatches;
}

}  // namespace

Ipv6Prefix fipsPrefix() {
  Ipv6Prefix prefix;
  prefix.address.s6_addr[0] = 0xfd;
  prefix.length = 8;
  return prefix;
}

std::string formatPrefix(const Ipv6Prefix& prefix) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  inet_ntop(AF_INET6, &prefix.address, text.data(), text.size());
  return std::string(text.data()) + "/" + std::to_string(prefix.length);
}

std::optional<LinkInfo> findLink(NetlinkSocket& nl, std::string_view name) {
  NetlinkMessage msg(RTM_GETLINK, 0);
  putLinkHeader(msg, 0);
  msg.putString(IFLA_IFNAME, name);
  std::string what = "look up link " + std::string(name);
  std::optional<LinkInfo> found;
  NetlinkStatus status = nl.transact(msg, what, [&found](const nlmsghdr& nlh) {
    if (nlh.nlmsg_type != RTM_NEWLINK || mnl_nlmsg_get_payload_len(&nlh) < sizeof(ifinfomsg)) {
      return;
    }
    const auto* ifi = static_cast<const ifinfomsg*>(mnl_nlmsg_get_payload(&nlh));
    LinkInfo info{static_cast<uint32_t>(ifi->ifi_index), {}};
    forEachAttr(nlh, sizeof(ifinfomsg), [&info](const nlattr& attr) {
      if (mnl_attr_get_type(&attr) == IFLA_LINKINFO) info.kind = linkKind(attr);
    });
    found = std::move(info);
  });
  if (status.err == ENODEV) return std::nullopt;
  if (status.err != 0) throw TunError(describeFailure(what, status));
  return found;
}

void setMtu(NetlinkSocket& nl, LinkRef link, uint16_t mtu) {
  NetlinkMessage msg(RTM_NEWLINK, 0);
  putLinkHeader(msg, link.index);
  msg.putU32(IFLA_MTU, mtu);
  nl.request(msg, "set MTU " + std::to_string(mtu) + " on " + std::string(link.name));
}

void setLinkUp(NetlinkSocket& nl, LinkRef link) {
  NetlinkMessage msg(RTM_NEWLINK, 0);
  auto& ifi = putLinkHeader(msg, link.index);
  ifi.ifi_flags = IFF_UP;
  ifi.ifi_change = IFF_UP;
  nl.request(msg, "bring " + std::string(link.name) + " up");
}

void addAddress(NetlinkSocket& nl, LinkRef link, const Ipv6Prefix& address) {
  NetlinkMessage msg(RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
  auto& ifa = msg.putHeader<ifaddrmsg>();
  ifa.ifa_family = AF_INET6;
  ifa.ifa_prefixlen = address.length;
  ifa.ifa_flags = IFA_F_NODAD;
  ifa.ifa_scope = RT_SCOPE_UNIVERSE;
  ifa.ifa_index = link.index;
  msg.putBytes(IFA_LOCAL, &address.address, sizeof(address.address));
  msg.putBytes(IFA_ADDRESS, &address.address, sizeof(address.address));
  msg.putU32(IFA_FLAGS, IFA_F_NODAD);
  std::string what = "add address " + formatPrefix(address) + " to " + std::string(link.name);
  NetlinkStatus status = nl.transact(msg, what);
  if (status.err == 0) return;
  std::string text = describeFailure(what, status);
  // The kernel refuses addresses with EACCES on a device whose IPv6 is disabled. The device's
  // own sysctl only exists while it does, and a new device takes its value from `default`
  // (and `all` disables every device), so those are the ones to name.
  if (status.err == EACCES) {
    text +=
        " (is IPv6 disabled? see sysctl net.ipv6.conf.default.disable_ipv6 and "
        "net.ipv6.conf.all.disable_ipv6)";
  }
  throw TunError(text);
}

void addRoute(NetlinkSocket& nl, LinkRef link, const Ipv6Prefix& dst) {
  NetlinkMessage msg(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
  auto& rtm = msg.putHeader<rtmsg>();
  rtm.rtm_family = AF_INET6;
  rtm.rtm_dst_len = dst.length;
  rtm.rtm_table = RT_TABLE_MAIN;
  rtm.rtm_protocol = RTPROT_STATIC;
  rtm.rtm_scope = RT_SCOPE_UNIVERSE;
  rtm.rtm_type = RTN_UNICAST;
  msg.putBytes(RTA_DST, &dst.address, sizeof(dst.address));
  msg.putU32(RTA_OIF, link.index);
  std::string what = "add route " + formatPrefix(dst) + " dev " + std::string(link.name);
  NetlinkStatus status = nl.transact(msg, what);
  if (status.err == 0) return;
  std::string text = describeFailure(what, status);
  if (status.err == EEXIST) text += " (another route for it is already in the main table)";
  throw TunError(text);
}

bool hasRoute(NetlinkSocket& nl, LinkRef link, const Ipv6Prefix& dst) {
  NetlinkMessage msg(RTM_GETROUTE, NLM_F_DUMP);
  msg.putHeader<rtmsg>().rtm_family = AF_INET6;
  bool found = false;
  nl.request(msg, "list IPv6 routes", [&](const nlmsghdr& nlh) {
    if (nlh.nlmsg_type == RTM_NEWROUTE && isRoute(nlh, link.index, dst)) found = true;
  });
  return found;
}

bool deleteLink(NetlinkSocket& nl, LinkRef link) {
  NetlinkMessage msg(RTM_DELLINK, 0);
  putLinkHeader(msg, link.index);
  std::string what = "delete link " + std::string(link.name);
  NetlinkStatus status = nl.transact(msg, what);
  if (status.err == ENODEV) return false;
  if (status.err != 0) throw TunError(describeFailure(what, status));
  return true;
}

bool removeLinkByName(std::string_view name) {
  NetlinkSocket nl;
  NetlinkMessage msg(RTM_DELLINK, 0);
  putLinkHeader(msg, 0);
  msg.putString(IFLA_IFNAME, name);
  std::string what = "delete link " + std::string(name);
  NetlinkStatus status = nl.transact(msg, what);
  if (status.err == ENODEV) return false;
  if (status.err != 0) throw TunError(describeFailure(what, status));
  return true;
}

}  // namespace fips::tunhelper
