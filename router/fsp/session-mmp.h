// SPDX-License-Identifier: MIT
// Session-layer MMP (FIPS spec 04 §3.3; the reference's MmpSessionState):
// the link layer's MMP state machine (router/link/link-mmp.h) run on an FSP
// session's AEAD counters and inner timestamps, with the session report
// schedule. Its SenderReport/ReceiverReport fields share the link reports'
// codec (router/fmp/link-reports.h, 2 reserved bytes in front). Runs in
// fips-router; reports come from the remote endpoint (untrusted).
#pragma once

#include <cstddef>
#include <cstdint>

#include "router/link/link-mmp.h"

namespace fips::router::fsp {

// The reference's limits.rs session values (ms): reports cross every transit
// link, so they start at 1 s and stay within 500 ms-10 s (sender 2 × SRTT,
// receiver 1 × SRTT).
constexpr uint64_t SESSION_MMP_COLD_START_INTERVAL_MS = 1'000;
constexpr uint64_t SESSION_MMP_MIN_REPORT_INTERVAL_MS = 500;
constexpr uint64_t SESSION_MMP_MAX_REPORT_INTERVAL_MS = 10'000;

constexpr link::MmpSchedule SESSION_MMP_SCHEDULE{
    .coldStartMs = SESSION_MMP_COLD_START_INTERVAL_MS,
    .coldStartFloorMs = SESSION_MMP_MIN_REPORT_INTERVAL_MS,
    .minMs = SESSION_MMP_MIN_REPORT_INTERVAL_MS,
    .maxMs = SESSION_MMP_MAX_REPORT_INTERVAL_MS};

// node.session_mmp.* (the reference's SessionMmpConfig defaults).
struct SessionMmpConfig {
  link::MmpMode mode = link::MmpMode::FULL;
  size_t owdWindow = 32;
};

// The session MMP state of one established session.
using SessionMmp = link::LinkMmp;
// What show sessions and probe read of it.
using SessionMetrics = link::LinkMetrics;

}  // namespace fips::router::fsp
