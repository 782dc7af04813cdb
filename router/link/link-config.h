// SPDX-License-Identifier: MIT
// LinkConfig: the knobs of the FMP link engine (node.*, node.rate_limit.*,
// node.limits.*, node.retry.*, node.rekey.*), with the reference's defaults
// (spec 02 §5, §8, §10; spec 01 §8). Runs in fips-router; filled from the
// validated config, so trusted.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fips::router::link {

// node.mmp.mode (spec 02 §9): full = SenderReports and ReceiverReports,
// lightweight = ReceiverReports only, minimal = no reports.
enum class MmpMode : uint8_t { FULL, LIGHTWEIGHT, MINIMAL };

struct LinkConfig {
  uint64_t heartbeatIntervalSecs = 10;  // Heartbeat every this long from the last sent
  uint64_t linkDeadTimeoutSecs = 30;    // no authenticated frame this long → link dead
  uint64_t handshakeTimeoutSecs = 30;   // whole outbound handshake
  uint64_t handshakeResendIntervalMs = 1000;
  double handshakeResendBackoff = 2.0;
  uint32_t handshakeMaxResends = 5;
  uint32_t handshakeBurst = 100;  // msg1 token bucket for strangers
  double handshakeRate = 10.0;    // tokens per second
  uint32_t maxPeers = 128;        // active peers; 0 = unlimited
  uint32_t maxLinks = 256;        // handshaking + active links; 0 = unlimited
  // Concurrent inbound handshakes in flight. The engine finishes each msg1
  // inside one onDatagram() call, so no slot is ever held across packets and
  // this limit (a concurrency cap in the async reference) cannot bind here.
  uint32_t maxPendingInbound = 1000;
  uint64_t retryBaseIntervalSecs = 5;  // reconnect delay base × 2^n
  uint64_t retryMaxBackoffSecs = 300;  // reconnect delay cap
  bool rekeyEnabled = true;
  uint64_t rekeyAfterSecs = 120;
  uint64_t rekeyAfterMessages = uint64_t{1} << 16U;
  MmpMode mmpMode = MmpMode::FULL;  // node.mmp.mode
  size_t mmpOwdWindow = 32;         // node.mmp.owd_window_size: OWD trend samples
};

}  // namespace fips::router::link
