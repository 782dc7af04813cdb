// SPDX-License-Identifier: MIT
// Link and IPv6 configuration over rtnetlink: look up, MTU, up, address, route, delete.
// Runs in fips-tun-helper (privileged). Acts only on config-derived values (interface name,
// MTU, the node's own address); never reads packet payloads.
#pragma once

#include <cstdint>
#include <netinet/in.h>
#include <optional>
#include <string>
#include <string_view>

#include "tun-helper/netlink.h"

namespace fips::tunhelper {

// An IPv6 prefix: address in network byte order, length in bits (0..128).
struct Ipv6Prefix {
  in6_addr address{};
  uint8_t length = 0;
};

// fd00::/8, the FIPS address space: every node address is in it, and it is routed to the TUN
// (spec 05 §1).
Ipv6Prefix fipsPrefix();

// "fd00::/8"
std::string formatPrefix(const Ipv6Prefix& prefix);

// A link by kernel ifindex; the name is used in error messages only.
struct LinkRef {
  uint32_t index = 0;
  std::string_view name;
};

// What RTM_GETLINK tells about an existing link. kind is IFLA_INFO_KIND ("tun", "dummy",
// "veth"), empty for links without one (physical NICs).
struct LinkInfo {
  uint32_t index = 0;
  std::string kind;
};

// The link named `name` in the socket's network namespace, or nullopt if there is none.
// Throws TunError on any other failure.
std::optional<LinkInfo> findLink(NetlinkSocket& nl, std::string_view name);

// Sets the link MTU (IFLA_MTU, bytes). Throws TunError.
void setMtu(NetlinkSocket& nl, LinkRef link, uint16_t mtu);

// Sets IFF_UP. Throws TunError.
void setLinkUp(NetlinkSocket& nl, LinkRef link);

// Adds an IPv6 address with IFA_F_NODAD (usable at once, no duplicate address detection).
// Throws TunError.
void addAddress(NetlinkSocket& nl, LinkRef link, const Ipv6Prefix& address);

// Adds `dst` dev link to the main table (NLM_F_EXCL: an existing route for the same prefix in
// the main table is an error, as it would shadow or be shadowed by ours). Throws TunError.
void addRoute(NetlinkSocket& nl, LinkRef link, const Ipv6Prefix& dst);

// Whether the main table holds the route `dst` dev link (dumps the IPv6 routes). Throws TunError.
bool hasRoute(NetlinkSocket& nl, LinkRef link, const Ipv6Prefix& dst);

// Deletes the link (RTM_DELLINK) even if processes still hold its fd. Returns false if it no
// longer existed. Throws TunError on any other failure.
bool deleteLink(NetlinkSocket& nl, LinkRef link);

// Deletes the link named `name` in the caller's network namespace, for the supervisor's cleanup
// after a crash. Returns false if there was none. Throws TunError.
bool removeLinkByName(std::string_view name);

}  // namespace fips::tunhelper
