// SPDX-License-Identifier: MIT
// Turning the `peers:` slice of the router's config into what the link
// engine dials: the peer's key, its numeric transport addresses and its
// host-name addresses (looked up at connect time, see peer-resolver.h). Runs in
// fips-router; the slice comes from the supervisor's validated config.
#pragma once

#include <string>
#include <vector>

#include "privsep/socket-address.h"

#include "lib/crypto/secp256k1-keys.h"
#include "router/link/transport-addr.h"
#include "router/transports/peer-resolver.h"
#include "router/transports/transport-set.h"
#include "supervisor.capnp.h"

namespace fips::router {

// One peer to dial.
struct DialablePeer {
  crypto::PublicKey key;
  std::string name;  // alias, or the npub
  std::vector<link::TransportAddr> addrs;
  std::vector<PeerHostName> hosts;
};

// A parsed socket address as a link-layer address on transport
// `transportId`; nullopt for an address family other than IPv4/IPv6.
std::optional<link::TransportAddr> toTransportAddr(uint32_t transportId,
                                                   const privsep::SocketAddress& address);

// The auto-connect peers of `slice` with the addresses that can be used.
// Anything skipped (bad npub, an address that is neither numeric nor a
// valid host name, an address in fd00::/8, a transport that is not udp)
// adds one line to `warnings`.
std::vector<DialablePeer> dialablePeers(capnp::List<schema::StaticPeer>::Reader slice,
                                        TransportSet& transports,
                                        std::vector<std::string>& warnings);

}  // namespace fips::router
