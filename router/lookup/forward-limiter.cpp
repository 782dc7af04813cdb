// SPDX-License-Identifier: MIT
// The transit forward limit's flat table. Runs in fips-router.
#include "router/lookup/forward-limiter.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace fips::router::lookup {

namespace {

constexpr size_t MIN_CAPACITY = 16;

// The stamp stored for a forward allowed at nowMs (0 marks an empty slot).
uint64_t stampOf(uint64_t nowMs) {
  return std::min<uint64_t>(nowMs, UINT64_MAX - 1) + 1;
}

// Multiply-shift over the 32-bit words of bytes, into sum.
template <size_t N>
void mixWords(const std::array<uint8_t, N>& bytes, const uint64_t* multipliers, uint64_t& sum) {
  static_assert(N % 4 == 0);
  for (size_t i = 0; i < N / 4; ++i) {
    uint32_t word = 0;
    std::memcpy(&word, bytes.data() + 4 * i, sizeof word);
    sum += multipliers[i] * word;
  }
}

}  // namespace

ForwardLimiter::ForwardLimiter(uint64_t minIntervalMs, uint64_t maxAgeMs, const HashKey& hashKey)
    : minIntervalMs_(minIntervalMs),
      maxAgeMs_(std::max(maxAgeMs, minIntervalMs)),
      hashKey_(hashKey) {}

size_t ForwardLimiter::home(const identity::NodeAddr& origin,
                            const identity::NodeAddr& target) const {
  constexpr size_t WORDS = identity::NodeAddr::SIZE / 4;
  static_assert(2 * WORDS + 1 == HASH_KEY_WORDS);
  uint64_t sum = hashKey_[2 * WORDS];
  mixWords(origin.bytes(), hashKey_.data(), sum);
  mixWords(target.bytes(), hashKey_.data() + WORDS, sum);
  return static_cast<size_t>(sum >> shift_);
}

bool ForwardLimiter::aged(const Slot& slot, uint64_t nowMs) const {
  const uint64_t last = slot.stampMs - 1;
  return nowMs > last && nowMs - last >= maxAgeMs_;
}

bool ForwardLimiter::allow(const identity::NodeAddr& origin, const identity::NodeAddr& target,
                           uint64_t nowMs) {
  if (slots_.empty()) rebuild(nowMs);
  const size_t mask = slots_.size() - 1;
  size_t i = home(origin, target);
  for (; slots_[i].stampMs != 0; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.origin != origin || slot.target != target) continue;
    const uint64_t last = slot.stampMs - 1;
    const uint64_t elapsed = nowMs > last ? nowMs - last : 0;
    if (elapsed < minIntervalMs_) return false;
    slot.stampMs = stampOf(nowMs);
    return true;
  }
  if (4 * (size_ + 1) > 3 * slots_.size()) {
    rebuild(nowMs);
    insertNew(Slot{origin, target, stampOf(nowMs)});
  } else {
    slots_[i] = Slot{origin, target, stampOf(nowMs)};
    ++size_;
  }
  return true;
}

void ForwardLimiter::purge(uint64_t nowMs) {
  if (!slots_.empty()) rebuild(nowMs);
}

void ForwardLimiter::insertNew(const Slot& entry) {
  const size_t mask = slots_.size() - 1;
  size_t i = home(entry.origin, entry.target);
  while (slots_[i].stampMs != 0) i = (i + 1) & mask;
  slots_[i] = entry;
  ++size_;
}

void ForwardLimiter::rebuild(uint64_t nowMs) {
  const size_t live =
      static_cast<size_t>(std::count_if(slots_.begin(), slots_.end(), [&](const Slot& slot) {
        return slot.stampMs != 0 && !aged(slot, nowMs);
      }));
  // At most half full with the insert that may follow, so that at least a
  // quarter of the table fills before the next rebuild: amortised O(1).
  const size_t capacity = std::max(MIN_CAPACITY, std::bit_ceil(2 * (live + 1)));
  std::vector<Slot> old(capacity);
  old.swap(slots_);
  shift_ = static_cast<unsigned>(64 - std::countr_zero(capacity));
  size_ = 0;
  for (const Slot& slot : old) {
    if (slot.stampMs != 0 && !aged(slot, nowMs)) insertNew(slot);
  }
}

}  // namespace fips::router::lookup
