// SPDX-License-Identifier: MIT
// What a JSON-line request gets (spec 08 §1.1): read queries are answered
// at once from the latest per-tick NodeSnapshot with the same documents
// fipsctl --json prints (router/control/json); connect and disconnect
// become a command for the data-plane thread (control-bridge.capnp), as on
// the Cap'n Proto socket. Runs on the control thread of fips-router; the
// request is untrusted (checked here for shape, by the data plane for
// meaning).
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "router/control/json/line.h"
#include "router/control/snapshot/command-bridge.h"
#include "router/control/snapshot/snapshot-cell.h"
#include "router/dns/host-map.h"
#include "router/stats/stats-history.h"

namespace fips::router::control {

// A request that must reach the data path.
struct BridgeRequest {
  enum class Kind { CONNECT, DISCONNECT };
  Kind kind = Kind::CONNECT;
  std::string npub;
  std::string address;    // connect only
  std::string transport;  // connect only
};

// A probe job request (ProbeRunner): for START the target's canonical npub.
struct ProbeRequest {
  enum class Kind { START, POLL, CANCEL };
  Kind kind = Kind::START;
  std::string npub;  // START
  uint64_t id = 0;   // POLL, CANCEL
};

// The response envelope to send now, a command to run first, or a probe
// job request.
using Dispatch = std::variant<Json, BridgeRequest, ProbeRequest>;

// Answers `request` from `snapshot` (nullptr before the first publish) or,
// for the stats queries, from `history`; or says which command to run. A peer named to
// probe_start or a stats query may be a name of `names` (the router's host map: hosts-file
// names, configured aliases) or an npub. Errors use the reference's
// texts: "unknown command: <name>", "missing params for <name>", "missing '<field>' parameter",
// "invalid peer npub: <e>" (probe_start, which passes the npub on in its canonical lower-case
// form), and fipsctl's "unknown peer '<name>': not an npub, a hosts-file name or a configured
// peer alias"; a probe parameter of the wrong type (probe_id not an unsigned integer, npub not a
// string) is "invalid '<field>' parameter: expected ..." (null or absent is missing); the
// reference's commands this build lacks answer
// "<name>: not available yet in this build".
Dispatch dispatchRequest(const JsonRequest& request, const FlatSnapshot& snapshot,
                         const stats::StatsHistory& history, const dns::HostMap& names);

// The response envelope for a command's outcome: connect's data is
// json::connectJson's, as fipsctl connect --json prints it (the
// reference's {npub, address, transport, refreshed} plus already_connected,
// already_connecting, dial_state and, while a dial was under way, null
// address/transport and a "message"); disconnect's is {npub, disconnected,
// dial_cancelled} (the peer was not up: its pending dial, in dial_state,
// and its retries were cancelled).
Json bridgeResponse(const BridgeRequest& request, const CommandOutcome& outcome);

// Fills a control-bridge command for `request`.
void fillCommand(const BridgeRequest& request, schema::ControlCommand::Builder command);

}  // namespace fips::router::control
