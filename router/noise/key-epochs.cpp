// SPDX-License-Identifier: MIT
// Key epochs with trial decryption (see key-epochs.h). Runs in fips-router on
// the data path.
#include "router/noise/key-epochs.h"

#include <array>

namespace fips::router::noise {

KeyEpochs::KeyEpochs(RekeyLayer layer, const TransportKeys& initial)
    : layer_(layer), current_(initial) {}

bool KeyEpochs::cutover(uint64_t nowMs) {
  if (!pending_) return false;
  previous_.reset();
  previous_.emplace(std::move(current_));
  current_ = std::move(*pending_);
  pending_.reset();
  previousUntilMs_ = nowMs + DRAIN_WINDOW_MS;
  kBit_ = !kBit_;
  return true;
}

void KeyEpochs::expireDrain(uint64_t nowMs) {
  if (previous_ && nowMs >= previousUntilMs_) previous_.reset();
}

TransportCiphers* KeyEpochs::slot(KeySlot which) {
  switch (which) {
    case KeySlot::CURRENT:
      return &current_;
    case KeySlot::PENDING:
      return pending_ ? &*pending_ : nullptr;
    case KeySlot::PREVIOUS:
      return previous_ ? &*previous_ : nullptr;
  }
  return nullptr;
}

EpochOpenResult KeyEpochs::openFrame(bool kOnWire, std::span<const uint8_t> header,
                                     size_t counterOffset, std::span<const uint8_t> ciphertext,
                                     std::span<uint8_t> out, uint64_t nowMs) {
  const bool pendingFirst = kOnWire != kBit_ && pending_;
  // Link layer tries pending only when the K bit points at it.
  const bool tryPending = layer_ == RekeyLayer::SESSION || pendingFirst;
  std::array<KeySlot, 3> order{};
  size_t count = 0;
  if (pendingFirst) order[count++] = KeySlot::PENDING;
  order[count++] = KeySlot::CURRENT;
  if (!pendingFirst && tryPending) order[count++] = KeySlot::PENDING;
  order[count++] = KeySlot::PREVIOUS;

  EpochOpenResult result{OpenStatus::DECRYPT_FAILED, KeySlot::CURRENT, false};
  bool haveStatus = false;
  for (size_t i = 0; i < count; ++i) {
    TransportCiphers* ciphers = slot(order[i]);
    if (ciphers == nullptr) continue;
    const OpenStatus status = ciphers->recv.openFrame(header, counterOffset, ciphertext, out);
    if (status == OpenStatus::OK) {
      result = {OpenStatus::OK, order[i], false};
      if (order[i] == KeySlot::PENDING) result.promoted = cutover(nowMs);
      return result;
    }
    // Report what the current keys said, else the first keys tried.
    if (!haveStatus || order[i] == KeySlot::CURRENT) {
      result = {status, order[i], false};
      haveStatus = true;
    }
  }
  return result;
}

}  // namespace fips::router::noise
