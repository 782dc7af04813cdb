// SPDX-License-Identifier: MIT
// The control commands that change the node (spec 08 §1.1 connect and
// disconnect), run on fips-router's data-plane thread against the link
// engine. Every field comes from a local client of the control socket and
// is checked here; a refusal is a one-line error in the result.
#pragma once

#include <map>
#include <string>

#include "control-bridge.capnp.h"
#include "lib/crypto/secp256k1-keys.h"
#include "router/dns/host-map.h"
#include "router/mesh/mesh-node.h"
#include "router/transports/peer-resolver.h"
#include "router/transports/transport-set.h"
#include "supervisor.capnp.h"

namespace fips::router {

// Runs `command` and writes its outcome to `reply` (its result; a probe
// also its report). The peer of connect, disconnect and probe is a name of
// `hosts` (the router's one host map: hosts-file names and configured
// aliases, any case, as `<name>.fips` resolves them) or an npub
// (dns::resolvePeerName); `names` are the display names of known nodes.
// Connect takes a numeric ip:port, or a host:port that `resolver` has the
// UDP worker look up before the one dial. A connect to a peer whose dial is under way (handshake,
// retry backoff, or its host name being looked up by `resolver`, which may be null) changes nothing
// and says so; a disconnect of such a peer cancels the dial.
void runControlCommand(schema::ControlCommand::Reader command, mesh::MeshNode& links,
                       const TransportSet& transports, PeerResolver* resolver,
                       const dns::HostMap& hosts,
                       const std::map<identity::NodeAddr, std::string>& names, uint32_t tickMs,
                       schema::ControlReply::Builder reply);

}  // namespace fips::router
