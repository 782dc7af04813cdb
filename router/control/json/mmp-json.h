// SPDX-License-Identifier: MIT
// The reference's JSON for link-layer MMP (spec 02 §9): the show_mmp
// document and the per-peer "mmp" and "stats" blocks of show_peers /
// show_links, made from control.capnp LinkMmp / LinkTraffic. Pure
// functions; used by fipsctl --json and the JSON-line compatibility socket.
#pragma once

#include "control.capnp.h"
#include "router/control/json/json.h"

namespace fips::router::control::json {

// show_mmp data: {"peers": [{"peer", "display_name", "mode", "link_layer":
// {...}}], "sessions": []} (session-layer MMP is not measured yet).
Json mmpJson(capnp::List<schema::PeerStatus>::Reader peers);

// show_peers "mmp" block: mode, srtt_ms (ms, once measured), loss_rate,
// etx, goodput_bps (bits/s), delivery ratios, smoothed_loss, smoothed_etx,
// lqi.
Json peerMmpJson(schema::LinkMmp::Reader mmp);

// show_sessions "mmp" block, the reference's session order: mode,
// loss_rate, etx, goodput_bps (bytes/s), delivery ratios, path_mtu (bytes;
// 65535 until the destination reports one, as the reference), then srtt_ms
// (ms), smoothed_loss, smoothed_etx and sqi (smoothed ETX × (1 + SRTT/100))
// once measured. pathMtu: SessionStatus.pathMtu (0 = unknown).
Json sessionMmpJson(schema::LinkMmp::Reader mmp, uint16_t pathMtu);

// {"packets_sent", "packets_recv", "bytes_sent", "bytes_recv"}: per-link
// counters of authenticated frames (bytes on the wire).
Json trafficJson(schema::LinkTraffic::Reader stats);

// Link quality index as the reference shows it: smoothed ETX × (1 + SRTT/100);
// present only once SRTT and the smoothed ETX are measured.
bool hasLqi(schema::LinkMmp::Reader mmp);
double lqi(schema::LinkMmp::Reader mmp);

}  // namespace fips::router::control::json
