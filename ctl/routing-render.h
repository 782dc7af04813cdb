// SPDX-License-Identifier: MIT
// How fipsctl prints `show sessions|connections|routing|identity-cache` and
// `acl show`: a JSON document with the reference's show_sessions /
// show_connections / show_routing / show_identity_cache / show_acl field
// names (docs/reference/control-socket.md), or a human summary and table.
// Pure functions of the daemon's answer; runs in fipsctl.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "control.capnp.h"
#include "ctl/show-render.h"
#include "router/control/json/routing-json.h"

namespace fips::ctl {

using router::control::json::aclJson;
using router::control::json::connectionsJson;
using router::control::json::identityCacheJson;
using router::control::json::routingJson;
using router::control::json::sessionsJson;

// Tables for show sessions|connections|routing|identity-cache and acl show
// (the JSON documents are router/control/json/routing-json.h).

// nowUnixMs: for the "age" and "idle" columns.
std::string sessionsTable(schema::SessionsStatus::Reader sessions, uint64_t nowUnixMs);

std::string connectionsTable(schema::ConnectionsStatus::Reader connections);

std::string routingTable(schema::RoutingStatus::Reader routing, uint64_t nowUnixMs);

std::string identityCacheTable(schema::IdentityCacheStatus::Reader cache);

// Whether an ACL file is there, as fipsctl sees it (UNKNOWN: could not tell,
// e.g. no permission).
enum class AclFileState { UNKNOWN, MISSING, PRESENT };

// `fileState(path)` says whether each of the ACL's files exists: a missing
// one is said "(missing)" rather than "(0 entries)" (the reference's
// default_open state); one this build does not read, "(not read)".
std::string aclTable(schema::AclStatus::Reader acl,
                     const std::function<AclFileState(const std::string&)>& fileState);

}  // namespace fips::ctl
