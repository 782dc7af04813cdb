// SPDX-License-Identifier: MIT
// LinkPmtu: the RFC 8899 search and confirmation state of one link (see
// link-pmtu.h). Runs in fips-router.
#include "router/link/link-pmtu.h"

#include <algorithm>

namespace fips::router::link {

namespace {
// Below this a ceiling is not acted on (spec 04 §5 MIN_ACTIONABLE_PATH_MTU).
constexpr uint16_t MIN_ACTIONABLE_MTU = 256;
}  // namespace

LinkPmtu::LinkPmtu(LinkPmtuConfig config, uint64_t nowMs)
    : config_(config),
      confirmed_(std::min(config.baseMtu, config.maxMtu)),
      failedAbove_(static_cast<uint32_t>(config.maxMtu) + 1),
      nextConfirmMs_(nowMs),
      nextRaiseMs_(nowMs) {}

std::optional<ProbeRequest> LinkPmtu::send(uint16_t size, uint64_t nowMs, uint64_t id) {
  inFlightSize_ = size;
  inFlightId_ = id;
  sentAtMs_ = nowMs;
  tries_ = 1;
  return ProbeRequest{.id = id, .size = size};
}

std::optional<ProbeRequest> LinkPmtu::poll(uint64_t nowMs, uint64_t freshId) {
  if (inFlightSize_ != 0) {
    if (nowMs - sentAtMs_ < config_.probeTimeoutMs) return std::nullopt;
    if (tries_ < config_.maxProbes) {
      ++tries_;
      inFlightId_ = freshId;
      sentAtMs_ = nowMs;
      return ProbeRequest{.id = freshId, .size = inFlightSize_};
    }
    const uint16_t lost = inFlightSize_;
    inFlightSize_ = 0;
    fail(lost);
  }
  if (searching_) {
    if (optimistic_ || failedAbove_ > config_.maxMtu) {
      // The configured MTU first: one round trip on a path that carries it.
      if (confirmed_ < config_.maxMtu) return send(config_.maxMtu, nowMs, freshId);
    } else if (failedAbove_ - confirmed_ > config_.searchResolution) {
      return send(static_cast<uint16_t>((confirmed_ + failedAbove_) / 2), nowMs, freshId);
    }
    searching_ = false;
    nextConfirmMs_ = nowMs + config_.confirmIntervalMs;
    nextRaiseMs_ = nowMs + config_.raiseIntervalMs;
    return std::nullopt;
  }
  if (nowMs >= nextRaiseMs_ && confirmed_ < config_.maxMtu) {
    nextRaiseMs_ = nowMs + config_.raiseIntervalMs;
    failedAbove_ = static_cast<uint32_t>(config_.maxMtu) + 1;
    searching_ = true;
    return send(config_.maxMtu, nowMs, freshId);
  }
  if (nowMs >= nextConfirmMs_) {
    nextConfirmMs_ = nowMs + config_.confirmIntervalMs;
    return send(mtu(), nowMs, freshId);
  }
  return std::nullopt;
}

// A size went unanswered maxProbes times: too big. If it was the confirmed
// size, the path shrank under us (a black hole): back to the floor.
void LinkPmtu::fail(uint16_t size) {
  optimistic_ = false;
  failedAbove_ = std::min<uint32_t>(failedAbove_, size);
  if (confirmed_ >= size) confirmed_ = std::min(config_.baseMtu, config_.maxMtu);
  if (failedAbove_ <= confirmed_) failedAbove_ = static_cast<uint32_t>(confirmed_) + 1;
  searching_ = true;
}

bool LinkPmtu::onAck(uint64_t id, uint64_t /*nowMs*/) {
  if (inFlightSize_ == 0 || id != inFlightId_) return false;
  const uint16_t size = inFlightSize_;
  inFlightSize_ = 0;
  optimistic_ = false;
  confirmed_ = std::max(confirmed_, size);
  if (failedAbove_ <= size) failedAbove_ = static_cast<uint32_t>(config_.maxMtu) + 1;
  return true;
}

void LinkPmtu::onCeiling(uint16_t ceiling, uint64_t nowMs) {
  if (ceiling < MIN_ACTIONABLE_MTU || ceiling >= mtu()) return;
  optimistic_ = false;
  confirmed_ = ceiling;
  failedAbove_ = static_cast<uint32_t>(ceiling) + 1;
  if (inFlightSize_ > ceiling) inFlightSize_ = 0;
  searching_ = false;
  nextConfirmMs_ = nowMs + config_.confirmIntervalMs;
  nextRaiseMs_ = nowMs + config_.raiseIntervalMs;
}

}  // namespace fips::router::link
