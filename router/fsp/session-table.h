// SPDX-License-Identifier: MIT
// The sans-IO FSP session layer of one node (FIPS spec 04 §2.4-§5): one
// session per remote NodeAddr (FSP has no session index: dispatch is an O(1)
// hash lookup on the datagram's src_addr, as in the reference), the Noise XK
// handshake (Initiating / AwaitingMsg3 / Established), crossing setups, Ack
// and Setup resends, setup admission per link peer, session rekey
// (router/noise/session-rekey.h), coordinate warmup, reactions to routing
// signals, idle teardown, pending packets, path MTU and session MMP
// (Sender/ReceiverReports, SRTT, loss, ETX). Clock and rng are
// injected; every output is a SessionAction. Runs in fips-router; every FSP
// message and signal is untrusted input, dropped and counted when bad.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/crypto/rng.h"
#include "router/fsp/handshake-messages.h"
#include "router/fsp/path-mtu-state.h"
#include "router/fsp/session-actions.h"
#include "router/fsp/session-mmp.h"
#include "router/fsp/setup-rate-limiter.h"
#include "router/noise/session-rekey.h"
#include "router/routing/coord-cache.h"
#include "router/routing/identity-cache.h"
#include "router/routing/routing-signal.h"

namespace fips::router::fsp {

// node.session.*, node.rate_limit.{session_setup_*, handshake_*} (spec 04 §8).
struct SessionConfig {
  uint8_t defaultTtl = 64;
  size_t pendingPacketsPerDest = 16;
  size_t pendingMaxDestinations = 256;
  uint64_t idleTimeoutMs = 90'000;  // 0 disables idle teardown
  uint8_t coordsWarmupPackets = 5;
  uint64_t coordsResponseIntervalMs = 2'000;
  uint64_t handshakeTimeoutMs = 30'000;
  uint64_t handshakeResendIntervalMs = 1'000;
  double handshakeResendBackoff = 2.0;
  uint32_t handshakeMaxResends = 5;
  SetupRateConfig setupRate;
  noise::SessionRekeyConfig rekey;
  SessionMmpConfig mmp;
};

// This node: keys and addresses; everything must outlive the table.
struct LocalIdentity {
  const crypto::Secp256k1Context* ctx;
  const noise::Secp256k1Suite* suite;
  const crypto::SecretKey* keys;
  NodeAddr addr;
  noise::Epoch epoch;  // startup epoch, sent in msg2/msg3
};

enum class SessionState : uint8_t { INITIATING, AWAITING_MSG3, ESTABLISHED };

// Per-reason drop counters of inbound FSP input (fipsctl stats).
enum class SessionDrop : uint8_t {
  MALFORMED,           // a codec rejected the message (see codecErrors)
  SETUP_RATE_LIMITED,  // SessionSetup over a link peer out of tokens
  CROSSING_SETUP_WON,  // crossing setups: ours wins (smaller NodeAddr), theirs dropped
  HANDSHAKE_FAILED,    // XK message did not authenticate / parse
  UNKNOWN_SESSION,     // Ack/Msg3/encrypted message with no session for src
  BAD_STATE,           // message not valid in the session's state
  ADDR_MISMATCH,       // msg3 static key does not hash to src_addr
  DECRYPT_FAILED,      // no key epoch opened the frame (or replayed)
  UNKNOWN_MSG_TYPE,    // inner msg_type not in spec 04 §3.1
  SIGNAL_FORGED,       // routing signal names us, or src == its dest_addr
  SIGNAL_UNBOUND,      // routing signal for a session we neither hold nor initiated
  COUNT_,
};
constexpr size_t SESSION_DROP_COUNT = static_cast<size_t>(SessionDrop::COUNT_);
const char* toString(SessionDrop drop);

// Result of sendData.
enum class SendOutcome : uint8_t {
  SENT,           // sealed and handed out as SendFsp
  QUEUED,         // waiting for the session (a Setup was sent if none existed)
  QUEUED_LOOKUP,  // identity unknown: a lookup was started, packet queued
  DROPPED_QUEUE,  // pending destination limit reached
  FAILED,         // too large for one FSP message, or send counter exhausted
};

// Read-only view of one session, for the integrator and stats.
struct SessionInfo {
  SessionState state;
  bool initiator;
  uint8_t coordsWarmupRemaining;
  uint16_t pathMtu;  // source-side current path MTU (PathMtuState::UNKNOWN if none)
  uint64_t packetsSent, packetsRecv, bytesSent, bytesRecv;
  uint32_t resends = 0;         // handshake message resends (Initiating / AwaitingMsg3)
  uint64_t createdMs = 0;       // monotonic ms the entry was created
  uint64_t lastActivityMs = 0;  // monotonic ms of handshake progress or Data
  // Established only: the keys' start (reset at every cutover), K bit,
  // previous keys still draining, completed rekeys, a rekey handshake armed.
  uint64_t sessionStartMs = 0;
  bool kBit = false;
  bool draining = false;
  uint64_t rekeys = 0;
  bool rekeyInProgress = false;
  // Established only: session-layer MMP (spec 04 §3.3): SRTT, loss, ETX...
  std::optional<SessionMetrics> mmp = std::nullopt;
  bool openedForProbe = false;  // open() started it and no Data has been sent yet
};

// What closeProbeSession did (the reference's probe teardown guard).
enum class ProbeTeardown : uint8_t {
  TORN_DOWN,  // the probe's session was removed
  GONE,       // no session with dest is left
  REPLACED,   // another entry (a different createdMs, or not ours as initiator) took its place
  ADOPTED,    // Data moved on it (sent, received or queued): left in place
};

class SessionTable {
 public:
  // cfg, coords and identities are borrowed and must outlive the table (one
  // config is shared by the components of a node).
  SessionTable(const LocalIdentity& local, const SessionConfig& cfg, routing::CoordCache& coords,
               routing::IdentityCache& identities);
  SessionTable(const LocalIdentity&, SessionConfig&&, routing::CoordCache&,
               routing::IdentityCache&) = delete;  // the config must outlive the table
  ~SessionTable();
  SessionTable(const SessionTable&) = delete;
  SessionTable& operator=(const SessionTable&) = delete;

  // Our tree coordinates (self → root), put in SessionSetup/Ack and CP. Set
  // whenever the tree changes; empty means [self].
  void setMyCoords(const Coordinates& coords) { myCoords_ = coords; }
  // Minimum MTU of the operational transports (bytes): the CP-or-CoordsWarmup
  // decision (spec 04 §4).
  void setTransportMtu(uint16_t mtu) { transportMtu_ = mtu; }

  // An FSP message that arrived in a SessionDatagram addressed to us: src is
  // its src_addr, linkPeer the FMP peer it came over, pathMtu its path_mtu,
  // ce the link frame's CE flag.
  void onDatagram(const NodeAddr& src, const NodeAddr& linkPeer, std::span<const uint8_t> fsp,
                  uint16_t pathMtu, bool ce, uint64_t nowMs, crypto::Rng& rng, SessionActions& out);
  // A routing signal already decoded (router/routing/routing-signal.h);
  // datagramSrc is the src_addr of the datagram that carried it. onDatagram
  // calls this itself for U-flagged messages.
  void onRoutingSignal(const NodeAddr& datagramSrc, const routing::RoutingSignal& signal,
                       uint64_t nowMs, SessionActions& out);

  // Sends Data (spec 04 §3.1) to dest, starting a session or a lookup and
  // queueing as needed. payload is the service payload after the ports.
  SendOutcome sendData(const NodeAddr& dest, uint16_t srcPort, uint16_t dstPort,
                       std::span<const uint8_t> payload, uint64_t nowMs, crypto::Rng& rng,
                       SessionActions& out);
  // Opens a session to dest without data (fipsctl probe, as the reference's
  // probe): a SessionSetup to a known identity, or a lookup first. False if a
  // session (in any state) already exists or dest's identity is unknown.
  bool open(const NodeAddr& dest, uint64_t nowMs, crypto::Rng& rng, SessionActions& out);
  // Seals a CoordsWarmup on the established session with dest: one
  // encrypted frame the remote's MMP receiver reports on (the probe's
  // warmup). False if no session is established or sealing failed.
  bool sendWarmup(const NodeAddr& dest, uint64_t nowMs, SessionActions& out);
  // A lookup for dest finished: found → (re)initiate or reset the warmup
  // counter; not found → queued packets are given up (DropPending NO_ROUTE).
  // Every StartLookup must end in one call here (a timeout is "not found"):
  // while packets wait for dest, sendData starts no second lookup.
  void onLookupResult(const NodeAddr& dest, bool found, uint64_t nowMs, crypto::Rng& rng,
                      SessionActions& out);
  // Routing found no next hop for a SendFsp to dest. An Initiating session
  // whose Setup could not leave is discarded and a lookup started (its
  // packets stay queued), as the reference's failed initiate_session.
  void onRouteFailed(const NodeAddr& dest, SessionActions& out);
  // The first-hop link MTU a datagram to dest left with (decrease-only seed).
  void seedPathMtu(const NodeAddr& dest, uint16_t linkMtu);
  // Removes the session with peer (FMP peer removed or restarted, spec 02 §5).
  void removeSession(const NodeAddr& peer, SessionActions& out);
  // fipsctl probe's teardown: removes the session with dest only if it is
  // the one open() made at createdMs (monotonic ms), we still initiate it,
  // and no Data moved on it; no message goes to the remote (its half idles
  // out), as the reference's probe teardown.
  ProbeTeardown closeProbeSession(const NodeAddr& dest, uint64_t createdMs, SessionActions& out);

  // Timers: handshake resends and timeouts, idle teardown, rekey, path MTU
  // notifications. Call every tick (e.g. 100 ms-1 s).
  void tick(uint64_t nowMs, crypto::Rng& rng, SessionActions& out);

  std::optional<SessionInfo> info(const NodeAddr& peer) const;
  // Every session with its remote NodeAddr, in no particular order (control
  // snapshot; O(n)).
  std::vector<std::pair<NodeAddr, SessionInfo>> list() const;
  size_t size() const { return sessions_.size(); }
  const PendingQueue& pending() const { return pending_; }
  uint64_t drops(SessionDrop drop) const { return drops_[static_cast<size_t>(drop)]; }
  uint64_t codecErrors(FspError error) const { return codecErrors_[static_cast<size_t>(error)]; }
  // Rekeys started because the peer stopped answering our Data (#25).
  uint64_t reconfirms() const { return reconfirms_; }

  // Slack added to two report intervals before unanswered Data starts a
  // rekey that re-establishes the keys with a restarted peer (#25).
  static constexpr uint64_t UNANSWERED_SLACK_MS = 3'000;
  // First gap between two such rekeys while the peer stays silent (doubles).
  static constexpr uint64_t RECONFIRM_RETRY_MS = 1'000;

 private:
  struct Session;

  static SessionInfo infoOf(const Session& s);

  Session* find(const NodeAddr& peer);
  void drop(SessionDrop reason) { ++drops_[static_cast<size_t>(reason)]; }
  void codecError(FspError error);
  const Coordinates& myCoords();
  Coordinates destCoordsOrMine(const NodeAddr& dest, uint64_t nowMs);
  void send(const NodeAddr& dest, std::vector<uint8_t> message, SessionActions& out) const;
  void erase(const NodeAddr& peer, SessionCloseReason reason, PendingDropReason pendingReason,
             SessionActions& out);

  // session-handshake.cpp
  void onSetup(const NodeAddr& src, const NodeAddr& linkPeer, std::span<const uint8_t> msg,
               uint64_t nowMs, crypto::Rng& rng, SessionActions& out);
  void onAck(const NodeAddr& src, std::span<const uint8_t> msg, uint64_t nowMs, crypto::Rng& rng,
             SessionActions& out);
  void onMsg3(const NodeAddr& src, std::span<const uint8_t> msg, uint64_t nowMs, crypto::Rng& rng,
              SessionActions& out);
  bool initiate(const NodeAddr& dest, const crypto::PublicKey& key, uint64_t nowMs,
                crypto::Rng& rng, SessionActions& out);
  bool answerSetup(const NodeAddr& src, const SessionSetup& setup, uint64_t nowMs, crypto::Rng& rng,
                   SessionActions& out);
  void establish(const NodeAddr& peer, Session& s, const crypto::PublicKey& remote, uint64_t nowMs,
                 crypto::Rng& rng, SessionActions& out);

  // session-data.cpp
  void onEncrypted(const NodeAddr& src, std::span<const uint8_t> msg, uint16_t pathMtu, bool ce,
                   uint64_t nowMs, SessionActions& out);
  bool sealAndSend(const NodeAddr& dest, Session& s, SessionMessageType type,
                   std::span<const uint8_t> body, bool withCoords, uint64_t nowMs,
                   SessionActions& out);
  bool sendEstablished(const NodeAddr& dest, Session& s, uint16_t srcPort, uint16_t dstPort,
                       std::span<const uint8_t> payload, uint64_t nowMs, SessionActions& out);
  void flushPending(const NodeAddr& dest, Session& s, uint64_t nowMs, SessionActions& out);

  // session-tick.cpp
  void tickHandshake(const NodeAddr& peer, Session& s, uint64_t nowMs, SessionActions& out);
  void tickEstablished(const NodeAddr& peer, Session& s, uint64_t nowMs, crypto::Rng& rng,
                       SessionActions& out);
  bool sendCoordsWarmup(const NodeAddr& dest, Session& s, uint64_t nowMs, SessionActions& out);
  // A rekey msg1 of an established session, framed as a SessionSetup.
  void sendRekeySetup(const NodeAddr& peer, const noise::XkMsg1& msg1, uint64_t nowMs,
                      SessionActions& out);
  // How long Data may go unanswered (ms) before the keys are re-confirmed.
  static uint64_t unansweredLimitMs(const Session& s);
  // A peer that opened none of our frames for unansweredLimitMs has perhaps
  // restarted without us seeing its link go (a node hops away, a lost
  // Disconnect): start a rekey, which it answers as a new session.
  void reconfirmIfUnanswered(const NodeAddr& peer, Session& s, uint64_t nowMs, crypto::Rng& rng,
                             SessionActions& out);
  void tickMmp(const NodeAddr& peer, Session& s, uint64_t nowMs, SessionActions& out);
  // Until the session's first reports have gone out, sends each as soon as
  // it is due (after a frame sent or received) rather than on the next tick.
  void reportFirst(const NodeAddr& peer, Session& s, uint64_t nowMs, SessionActions& out);
  static void syncMmpEpoch(Session& s, uint64_t nowMs);
  void onSessionReport(Session& s, SessionMessageType type, std::span<const uint8_t> body,
                       uint64_t nowMs);

  LocalIdentity local_;
  const SessionConfig& cfg_;
  noise::SessionRekeyConfig rekey_;  // cfg_.rekey with the session's timers
  routing::CoordCache& coords_;
  routing::IdentityCache& identities_;
  Coordinates myCoords_;
  Coordinates selfOnly_;
  uint16_t transportMtu_ = 1280;
  SetupRateLimiter setupLimiter_;
  PendingQueue pending_;
  std::unordered_map<NodeAddr, std::unique_ptr<Session>, NodeAddrHash> sessions_;
  std::array<uint64_t, SESSION_DROP_COUNT> drops_{};
  std::array<uint64_t, FSP_ERROR_COUNT> codecErrors_{};
  uint64_t reconfirms_ = 0;
};

}  // namespace fips::router::fsp
