// SPDX-License-Identifier: MIT
// `fipsctl status`: the node on one screen, as `tailscale status` and `wg
// show` give it: this node (npub, fd00:: address, fips0), its place in the
// spanning tree (root, depth), its peers (name, fd00:: address, transport
// and its address, RTT) and its end-to-end sessions. A pure function of
// four daemon answers; runs in fipsctl.
#pragma once

#include <cstdint>
#include <string>

#include "control.capnp.h"

namespace fips::ctl {

// The status screen. nowUnixMs: for the "up" and "idle" columns.
std::string statusScreen(schema::NodeStatus::Reader status,
                         capnp::List<schema::PeerStatus>::Reader peers,
                         schema::TreeStatus::Reader tree, schema::SessionsStatus::Reader sessions,
                         uint64_t nowUnixMs);

// The same as one JSON document: {"node": show status, "tree": {"root",
// "root_npub", "is_root", "depth"}, "peers": show peers' list, "sessions":
// {"count", "sessions": [{"display_name", "npub", "ipv6_addr", "state"}]}}.
std::string statusScreenJson(schema::NodeStatus::Reader status,
                             capnp::List<schema::PeerStatus>::Reader peers,
                             schema::TreeStatus::Reader tree,
                             schema::SessionsStatus::Reader sessions);

}  // namespace fips::ctl
