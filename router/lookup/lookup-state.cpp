// SPDX-License-Identifier: MIT
// Lookup origination, the attempt ladder and the failure backoff (FIPS spec
// 03 §5.3). Runs in fips-router. Message handling is in lookup-receive.cpp.
#include "router/lookup/lookup-state.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <string_view>

#include "lib/crypto/sha256.h"

namespace fips::router::lookup {

namespace {

constexpr uint64_t MS_PER_SEC = 1000;
// Forward limiter entries idle this long are forgotten (reference FORWARD_MAX_AGE_MS).
constexpr uint64_t FORWARD_LIMITER_MAX_AGE_MS = 60000;

// base · 2^exponent, saturating, capped at cap (src/proto/rate_limit.rs backoff_ms).
uint64_t backoffMs(uint32_t exponent, uint64_t base, uint64_t cap) {
  uint64_t value = base;
  for (uint32_t i = 0; i < exponent && value < cap; ++i) {
    value = value > UINT64_MAX / 2 ? UINT64_MAX : value * 2;
  }
  return std::min(value, cap);
}

// The forward limiter's hash key: SHA-256 of a label, a block counter and our
// identity secret. Secret, so no peer can choose colliding keys; fixed per
// identity, so the core stays deterministic and draws nothing from the rng.
ForwardLimiter::HashKey forwardLimiterHashKey(const crypto::SecretKey& identity) {
  static constexpr std::string_view LABEL = "fips lookup forward limiter hash key";
  const std::span<const uint8_t> label(reinterpret_cast<const uint8_t*>(LABEL.data()),
                                       LABEL.size());
  ForwardLimiter::HashKey key{};
  constexpr size_t WORDS_PER_DIGEST = sizeof(crypto::Sha256Digest) / sizeof(uint64_t);
  for (size_t word = 0; word < key.size(); word += WORDS_PER_DIGEST) {
    const std::array<uint8_t, 1> block{static_cast<uint8_t>(word / WORDS_PER_DIGEST)};
    const crypto::Sha256Digest digest = crypto::sha256({label, block, identity.secret().bytes()});
    std::memcpy(key.data() + word, digest.data(),
                std::min(WORDS_PER_DIGEST, key.size() - word) * sizeof(uint64_t));
  }
  return key;
}

}  // namespace

LookupState::LookupState(const LookupConfig& config, const crypto::Secp256k1Context& ctx,
                         const crypto::SecretKey& identity, crypto::Rng& rng)
    : config_(config),
      ctx_(ctx),
      identity_(identity),
      rng_(rng),
      recent_(config.recentExpirySecs * MS_PER_SEC, config.maxRecentRequests),
      forwardLimiter_(config.forwardMinIntervalSecs * MS_PER_SEC, FORWARD_LIMITER_MAX_AGE_MS,
                      forwardLimiterHashKey(identity)) {}

bool LookupState::suppressed(const NodeAddr& target, uint64_t nowMs) const {
  const auto it = backoff_.find(target);
  return it != backoff_.end() && nowMs < it->second.suppressUntilMs;
}

void LookupState::recordFailure(const NodeAddr& target, uint64_t nowMs) {
  // With the backoff off (the default) a failure changes nothing, so keep no
  // entry: targets come from local traffic and would otherwise accumulate.
  if (config_.backoffBaseSecs == 0 || config_.backoffMaxSecs == 0) return;
  Backoff& entry = backoff_[target];
  ++entry.failures;
  entry.suppressUntilMs =
      nowMs + backoffMs(entry.failures - 1, config_.backoffBaseSecs * MS_PER_SEC,
                        config_.backoffMaxSecs * MS_PER_SEC);
}

// initiate_lookup: a fresh request to every tree peer whose filter contains
// the target (no non-tree fallback at origination). Returns the fan-out.
size_t LookupState::sendRequest(const routing::MeshView& view, const NodeAddr& target,
                                LookupActions& out) {
  ++counters_.reqInitiated;
  std::array<uint8_t, 8> id{};
  if (!rng_.fill(id)) {
    ++counters_.rngFailed;
    return 0;
  }
  LookupSend send;
  for (const routing::PeerView& peer : view.peers()) {
    if (peer.treePeer && view.mayReach(peer, target)) send.peers.push_back(peer.addr);
  }
  if (send.peers.empty()) return 0;
  uint64_t requestId = 0;
  for (size_t i = id.size(); i > 0; --i) requestId = (requestId << 8U) | id[i - 1];
  send.message = encodeLookupRequest(LookupRequest{.requestId = requestId,
                                                   .target = target,
                                                   .origin = view.selfAddr(),
                                                   .ttl = config_.ttl,
                                                   .minMtu = 0,
                                                   .originCoords = view.selfCoords()});
  const size_t fanout = send.peers.size();
  out.sends.push_back(std::move(send));
  return fanout;
}

LookupStart LookupState::start(const routing::MeshView& view, const NodeAddr& target,
                               uint64_t nowMs, LookupActions& out) {
  if (pending_.contains(target)) {
    ++counters_.reqDeduplicated;
    return LookupStart::ALREADY_PENDING;
  }
  if (suppressed(target, nowMs)) {
    ++counters_.reqBackoffSuppressed;
    return LookupStart::BACKOFF;
  }
  const auto peers = view.peers();
  const bool reachable = std::any_of(peers.begin(), peers.end(),
                                     [&](const auto& peer) { return view.mayReach(peer, target); });
  if (!reachable) {
    ++counters_.reqBloomMiss;
    recordFailure(target, nowMs);
    return LookupStart::BLOOM_MISS;
  }
  if (sendRequest(view, target, out) == 0) {
    recordFailure(target, nowMs);
    return LookupStart::NO_TREE_PEER;
  }
  pending_[target] = Pending{.initiatedMs = nowMs, .lastSentMs = nowMs, .attempt = 1};
  return LookupStart::STARTED;
}

void LookupState::tick(const routing::MeshView& view, uint64_t nowMs, LookupActions& out) {
  const size_t maxAttempts = config_.attemptTimeoutsSecs.size();
  for (auto it = pending_.begin(); it != pending_.end();) {
    Pending& entry = it->second;
    const size_t index = entry.attempt - 1;
    const uint64_t timeoutMs =
        index < maxAttempts ? config_.attemptTimeoutsSecs[index] * MS_PER_SEC : 0;
    if (nowMs < entry.lastSentMs || nowMs - entry.lastSentMs < timeoutMs) {
      ++it;
      continue;
    }
    if (entry.attempt >= maxAttempts) {
      ++counters_.respTimedOut;
      recordFailure(it->first, nowMs);
      out.unreachable.push_back(it->first);
      it = pending_.erase(it);
      continue;
    }
    ++entry.attempt;
    entry.lastSentMs = nowMs;
    sendRequest(view, it->first, out);
    ++it;
  }
}

std::vector<PendingLookup> LookupState::pendingLookups() const {
  std::vector<PendingLookup> out;
  out.reserve(pending_.size());
  for (const auto& [target, p] : pending_) {
    out.push_back({.target = target,
                   .initiatedMs = p.initiatedMs,
                   .lastSentMs = p.lastSentMs,
                   .attempt = p.attempt});
  }
  return out;
}

}  // namespace fips::router::lookup
