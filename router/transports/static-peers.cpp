// SPDX-License-Identifier: MIT
// Static peers for the link engine (see static-peers.h).
#include "router/transports/static-peers.h"

#include <netinet/in.h>
#include <variant>

#include "privsep/host-name.h"
#include "privsep/socket-address.h"

#include "lib/identity/nip19.h"

namespace fips::router {

std::optional<link::TransportAddr> toTransportAddr(uint32_t transportId,
                                                   const privsep::SocketAddress& address) {
  if (address.family() == AF_INET6) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&address.storage);
    return link::TransportAddr::make(transportId,
                                     std::span<const uint8_t>(sin6->sin6_addr.s6_addr, 16),
                                     ntohs(sin6->sin6_port), sin6->sin6_scope_id);
  }
  const auto* sin = reinterpret_cast<const sockaddr_in*>(&address.storage);
  return link::TransportAddr::make(
      transportId, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&sin->sin_addr), 4),
      ntohs(sin->sin_port));
}

std::vector<DialablePeer> dialablePeers(capnp::List<schema::StaticPeer>::Reader slice,
                                        TransportSet& transports,
                                        std::vector<std::string>& warnings) {
  std::vector<DialablePeer> out;
  for (auto peer : slice) {
    std::string npub = peer.getNpub();
    std::string name = peer.getAlias().size() > 0 ? std::string(peer.getAlias()) : npub;
    if (!peer.getAutoConnect()) continue;
    auto key = identity::decodeNpub(npub);
    if (!key.ok()) {
      warnings.push_back("peer " + name + ": " + key.error().message);
      continue;
    }
    DialablePeer dialable{key.value(), name, {}, {}};
    for (auto address : peer.getAddresses()) {
      std::string transport = address.getTransport();
      std::string text = address.getAddr();
      auto parsed = privsep::parseSocketAddress(text);
      const bool udp = transport == "udp" || transport.starts_with("udp/");
      const bool tcp = transport == "tcp" || transport.starts_with("tcp/");
      if (!udp && !tcp) {
        warnings.push_back("peer " + name + ": transport " + transport + " is not supported yet");
      } else if (!parsed && tcp) {
        warnings.push_back("peer " + name + ": address " + text +
                           " is not a numeric ip:port (host names are looked up for udp only)");
      } else if (!parsed) {
        if (auto host = privsep::parseHostPort(text)) {
          dialable.hosts.push_back({transports.idFor(transport), std::move(*host)});
        } else {
          warnings.push_back("peer " + name + ": address " + text +
                             " is neither address:port nor host:port");
        }
      } else if (auto addr = toTransportAddr(transports.idFor(transport), *parsed);
                 !addr || addr->isFipsMeshAddress()) {
        warnings.push_back("peer " + name + ": " + text +
                           " is in fd00::/8, the mesh itself: refused");
      } else {
        dialable.addrs.push_back(*addr);
      }
    }
    if (dialable.addrs.empty() && dialable.hosts.empty()) {
      warnings.push_back("peer " + name + ": no usable address, not dialed");
      continue;
    }
    out.push_back(std::move(dialable));
  }
  return out;
}

}  // namespace fips::router
