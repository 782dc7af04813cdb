// SPDX-License-Identifier: MIT
// One FSP session as the session table keeps it (FIPS spec 04 §2.4): the
// handshake in flight or the established keys (with rekey), the handshake
// message kept for resend, activity, warmup, path MTU and session MMP state. Internal to
// router/fsp's session table; runs in fips-router.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "router/fsp/path-mtu-state.h"
#include "router/fsp/session-mmp.h"
#include "router/fsp/session-table.h"
#include "router/noise/handshake.h"
#include "router/noise/session-rekey.h"

namespace fips::router::fsp {

struct SessionTable::Session {
  SessionState state = SessionState::INITIATING;
  bool initiator = false;
  std::optional<crypto::PublicKey> remoteKey;  // initiator: known; responder: after msg3
  std::optional<noise::Handshake> handshake;   // Initiating / AwaitingMsg3
  std::unique_ptr<noise::SessionRekey> keys;   // Established
  std::vector<uint8_t> handshakeMessage;       // our Setup or Ack, resent until answered
  uint32_t resends = 0;
  uint64_t nextResendMs = 0;
  uint64_t createdMs = 0;
  uint64_t lastActivityMs = 0;  // handshake progress, then Data sent/received only
  uint8_t warmupRemaining = 0;
  std::optional<uint64_t> lastCoordsResponseMs;  // CoordsWarmup answers to signals
  PathMtuState pathMtu;
  std::optional<SessionMmp> mmp;  // Established (spec 04 §3.3)
  bool mmpKBit = false;           // K bit the MMP counters belong to; a flip is a cutover
  bool openedForProbe = false;    // open() made it; cleared by the first Data sent
  // Established: when we first sent Data after the last frame we could
  // open from the peer (nullopt: answered). Too old → reconfirm the keys.
  std::optional<uint64_t> unansweredSinceMs;
  uint32_t reconfirmAttempts = 0;  // since the peer last answered
  uint64_t packetsSent = 0;
  uint64_t packetsRecv = 0;
  uint64_t bytesSent = 0;
  uint64_t bytesRecv = 0;
};

}  // namespace fips::router::fsp
