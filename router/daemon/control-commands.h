// SPDX-License-Identifier: MIT
// The control commands that change the node (spec 08 §1.1 connect and
// disconnect), run on fips-router's data-plane thread against the link
// engine. Every field comes from a local client of the control socket and
// is checked here; a refusal is a one-line error in the result.
#pragma once

#include "control-bridge.capnp.h"
#include "router/daemon/transport-set.h"
#include "router/mesh/mesh-node.h"

namespace fips::router {

// Runs `command` and writes its outcome to `result`.
void runControlCommand(schema::ControlCommand::Reader command, mesh::MeshNode& links,
                       const TransportSet& transports, schema::CommandResult::Builder result);

}  // namespace fips::router
