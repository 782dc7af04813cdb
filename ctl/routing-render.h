// SPDX-License-Identifier: MIT
// How fipsctl prints `show sessions|connections|routing|identity-cache` and
// `acl show`: a JSON document with the reference's show_sessions /
// show_connections / show_routing / show_identity_cache / show_acl field
// names (docs/reference/control-socket.md), or a human summary and table.
// Pure functions of the daemon's answer; runs in fipsctl.
#pragma once

#include <cstdint>
#include <string>

#include "control.capnp.h"
#include "ctl/show-render.h"

namespace fips::ctl {

// show_sessions: {"sessions": [...]} with remote_addr, display_name, state,
// is_initiator, last_activity_ms, npub, stats{packets_sent, packets_recv,
// bytes_sent, bytes_recv}, resend_count (handshaking) or session_start_ms,
// current_k_bit, coords_warmup_remaining, is_draining (established), plus
// this build's path_mtu, rekey_count, created_at_ms; "count" is exact.
Json sessionsJson(schema::SessionsStatus::Reader sessions);
// nowUnixMs: for the "age" and "idle" columns.
std::string sessionsTable(schema::SessionsStatus::Reader sessions, uint64_t nowUnixMs);

// show_connections: {"connections": [{link_id, direction, handshake_state,
// started_at_ms, idle_ms, resend_count, expected_peer}]}.
Json connectionsJson(schema::ConnectionsStatus::Reader connections);
std::string connectionsTable(schema::ConnectionsStatus::Reader connections);

// show_routing: coord_cache_entries, identity_cache_entries,
// pending_lookups[], pending_tun_destinations, pending_tun_packets,
// recent_requests, retries[], forwarding{}, discovery{} and its alias lookup{}.
Json routingJson(schema::RoutingStatus::Reader routing);
std::string routingTable(schema::RoutingStatus::Reader routing, uint64_t nowUnixMs);

// show_identity_cache: {"entries": [{node_addr, npub, display_name,
// ipv6_addr}], "count", "max_entries"}.
Json identityCacheJson(schema::IdentityCacheStatus::Reader cache);
std::string identityCacheTable(schema::IdentityCacheStatus::Reader cache);

// show_acl: allow_file, deny_file, enforcement_active, effective_mode,
// default_decision, allow_all, deny_all, *_entries[].
Json aclJson(schema::AclStatus::Reader acl);
std::string aclTable(schema::AclStatus::Reader acl);

}  // namespace fips::ctl
