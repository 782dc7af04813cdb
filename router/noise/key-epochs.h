// SPDX-License-Identifier: MIT
// The transport keys of one peer across rekeys: current, pending (a completed
// rekey handshake not yet in use) and previous (draining), the K bit, and
// trial decryption against pending before promotion. Runs in fips-router on
// the data path; open() takes untrusted frames and never throws.
//
// Receive order (spec 02 §3.3, 01 §8.2): link layer: if K differs from ours and
// a pending exists, pending first; then current; then previous. Session layer:
// [pending, current, previous] if K differs and a pending exists, else
// [current, pending, previous]. A success on pending promotes it (cutover).
// The K bit alone never promotes anything.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "router/noise/cipher-state.h"
#include "router/noise/handshake-state.h"

namespace fips::router::noise {

// Drain window for the previous keys after a cutover, ms (spec 01 §8).
constexpr uint64_t DRAIN_WINDOW_MS = 10'000;

enum class RekeyLayer : uint8_t { LINK, SESSION };
enum class KeySlot : uint8_t { CURRENT, PENDING, PREVIOUS };

// One direction pair of transport ciphers.
struct TransportCiphers {
  explicit TransportCiphers(const TransportKeys& keys) : send(keys.send), recv(keys.recv) {}
  SendCipher send;
  RecvCipher recv;
};

// Outcome of KeyEpochs::open: status, which keys authenticated the frame,
// and whether that promoted the pending keys.
struct EpochOpenResult {
  OpenStatus status;
  KeySlot slot;
  bool promoted;
};

class KeyEpochs {
 public:
  KeyEpochs(RekeyLayer layer, const TransportKeys& initial);

  // The K bit we send and expect on current keys; flips at every cutover.
  bool kBit() const { return kBit_; }
  bool hasPending() const { return pending_.has_value(); }
  bool hasPrevious() const { return previous_.has_value(); }
  // Send counter of the current keys (rekey trigger input).
  uint64_t sendCounter() const { return current_.send.nextCounter(); }

  // Installs the keys of a completed rekey handshake as pending (replacing any).
  void setPending(const TransportKeys& keys) { pending_.emplace(keys); }
  void dropPending() { pending_.reset(); }
  // pending → current, current → previous (kept DRAIN_WINDOW_MS), K flips.
  // False if there is no pending.
  bool cutover(uint64_t nowMs);
  // Frees the previous keys once their drain window has passed.
  void expireDrain(uint64_t nowMs);

  // Seals with the current keys (see SendCipher::sealFrame); the caller puts
  // kBit() into the header flags before calling.
  std::optional<uint64_t> sealFrame(std::span<uint8_t> header, size_t counterOffset,
                                    std::span<const uint8_t> plaintext, std::span<uint8_t> out) {
    return current_.send.sealFrame(header, counterOffset, plaintext, out);
  }
  // Opens a frame whose header carries kOnWire, trying keys in the layer's
  // order; promotes pending on success there.
  EpochOpenResult openFrame(bool kOnWire, std::span<const uint8_t> header, size_t counterOffset,
                            std::span<const uint8_t> ciphertext, std::span<uint8_t> out,
                            uint64_t nowMs);

 private:
  TransportCiphers* slot(KeySlot which);

  RekeyLayer layer_;
  TransportCiphers current_;
  std::optional<TransportCiphers> pending_;
  std::optional<TransportCiphers> previous_;
  uint64_t previousUntilMs_ = 0;
  bool kBit_ = false;
};

}  // namespace fips::router::noise
