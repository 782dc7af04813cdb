// SPDX-License-Identifier: MIT
// SeriesRing: a fixed-size ring of float samples with one writer (the
// router's data-plane thread, once per tick) and any number of readers on
// other threads (the control thread answering history queries). The writer
// never waits and never allocates: slots are atomics, and a reader that
// raced with a wrap-around sees it through a sequence check (the seqlock
// pattern) and reads again. Runs in fips-router; holds only numbers the
// router computed itself.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace fips::router::stats {

template <size_t N>
class SeriesRing {
  static_assert(std::atomic<float>::is_always_lock_free);
  static_assert(std::atomic<uint64_t>::is_always_lock_free);

 public:
  static constexpr size_t CAPACITY = N;

  SeriesRing() = default;
  SeriesRing(const SeriesRing&) = delete;
  SeriesRing& operator=(const SeriesRing&) = delete;

  // Appends one sample, overwriting the oldest when full. Writer only.
  void push(float value) {
    const uint64_t index = done_.load(std::memory_order_relaxed);
    begun_.store(index + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    slots_[index % N].store(value, std::memory_order_relaxed);
    done_.store(index + 1, std::memory_order_release);
  }

  // Samples pushed since construction (not capped at N).
  uint64_t pushes() const { return done_.load(std::memory_order_acquire); }

  // Fills `out` (at most N long) with the newest samples, newest last; the
  // front is NaN where the ring holds fewer than out.size(). Any thread.
  void copyTail(std::span<float> out) const {
    const size_t want = std::min(out.size(), N);
    std::fill(out.begin(), out.end(), std::numeric_limits<float>::quiet_NaN());
    std::span<float> tail = out.subspan(out.size() - want);
    for (int attempt = 0; attempt < MAX_ATTEMPTS; ++attempt) {
      const uint64_t done = done_.load(std::memory_order_acquire);
      const size_t take = static_cast<size_t>(std::min<uint64_t>(want, done));
      const uint64_t first = done - take;
      for (size_t i = 0; i < take; ++i) {
        tail[want - take + i] = slots_[(first + i) % N].load(std::memory_order_relaxed);
      }
      std::atomic_thread_fence(std::memory_order_acquire);
      // Pushes begun by now overwrote every index below begun - N.
      const uint64_t begun = begun_.load(std::memory_order_relaxed);
      const uint64_t intact = begun > N ? begun - N : 0;
      if (first >= intact) return;
      if (attempt + 1 == MAX_ATTEMPTS) {
        // Still racing: the overwritten oldest samples become gaps.
        const size_t lost = static_cast<size_t>(std::min<uint64_t>(intact - first, take));
        std::fill_n(tail.begin() + static_cast<std::ptrdiff_t>(want - take), lost,
                    std::numeric_limits<float>::quiet_NaN());
      }
    }
  }

 private:
  static constexpr int MAX_ATTEMPTS = 4;

  std::array<std::atomic<float>, N> slots_{};
  std::atomic<uint64_t> begun_{0};  // pushes started
  std::atomic<uint64_t> done_{0};   // pushes finished
};

}  // namespace fips::router::stats
