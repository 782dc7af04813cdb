// SPDX-License-Identifier: MIT
// Turning the `peers:` slice of the router's config into what the link
// engine dials: the peer's key and its numeric transport addresses. Runs in
// fips-router; the slice comes from the supervisor's validated config.
#pragma once

#include <string>
#include <vector>

#include "router/daemon/transport-set.h"
#include "router/identity/public-key.h"
#include "router/link/transport-addr.h"
#include "supervisor.capnp.h"

namespace fips::router {

// One peer to dial.
struct DialablePeer {
  identity::PublicKey key;
  std::string name;  // alias, or the npub
  std::vector<link::TransportAddr> addrs;
};

// The auto-connect peers of `slice` with the addresses that can be used.
// Anything skipped (bad npub, a hostname, an address in fd00::/8, a
// transport that is not udp) adds one line to `warnings`.
std::vector<DialablePeer> dialablePeers(capnp::List<schema::StaticPeer>::Reader slice,
                                        TransportSet& transports,
                                        std::vector<std::string>& warnings);

}  // namespace fips::router
