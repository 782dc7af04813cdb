// SPDX-License-Identifier: MIT
// The reference's JSON documents for show_sessions, show_connections,
// show_routing, show_identity_cache and show_acl
// (docs/reference/control-socket.md; keys for the fields this build has),
// made from parts of the per-tick NodeSnapshot (control.capnp). Pure
// functions; used by fipsctl --json and by the router's JSON-line
// compatibility protocol, so both print the same document.
#pragma once

#include "control.capnp.h"
#include "router/control/json/json.h"

namespace fips::router::control::json {

// show_sessions: {"sessions": [...], "count"} with remote_addr (the remote
// node_addr in hex, as the reference), display_name, state, is_initiator,
// last_activity_ms, npub, stats{packets_sent, packets_recv, bytes_sent,
// bytes_recv}, resend_count (handshaking) or session_start_ms,
// current_k_bit, coords_warmup_remaining, is_draining (established), plus
// this build's created_at_ms, path_mtu, rekey_count, rekey_in_progress, and
// the session-layer "mmp" block once established (sessionMmpJson);
// "count" is exact (the list may be cut short). Stamps are Unix ms.
Json sessionsJson(schema::SessionsStatus::Reader sessions);

// show_connections: {"connections": [{link_id, direction, handshake_state,
// started_at_ms (Unix ms), idle_ms, resend_count, expected_peer (when
// known), remote_addr (this build's: the transport address, as in
// show_links)}]}; no "count", as the reference.
Json connectionsJson(schema::ConnectionsStatus::Reader connections);

// show_routing: coord_cache_entries, identity_cache_entries,
// pending_lookups[], pending_tun_destinations, pending_tun_packets,
// recent_requests, retries[], forwarding{}, discovery{} and its alias lookup{}.
Json routingJson(schema::RoutingStatus::Reader routing);

// show_identity_cache: {"entries": [{node_addr, npub, display_name,
// ipv6_addr}], "count", "max_entries"}.
Json identityCacheJson(schema::IdentityCacheStatus::Reader cache);

// show_acl: allow_file, deny_file, enforcement_active, effective_mode,
// default_decision, allow_all, deny_all, *_entries[].
Json aclJson(schema::AclStatus::Reader acl);

}  // namespace fips::router::control::json
