// SPDX-License-Identifier: MIT
// Unit tests for the replay window: duplicates, too-old, far-future and
// reordered counters within and beyond the 2048 window. Test code only.
#include "router/noise/replay-window.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include <doctest/doctest.h>

namespace fips::router::noise {
namespace {

bool take(ReplayWindow& w, uint64_t c) {
  if (w.check(c) != ReplayVerdict::FRESH) return false;
  w.accept(c);
  return true;
}

TEST_CASE("fresh window: 0 passes once, duplicates are caught") {
  ReplayWindow w;
  CHECK(take(w, 0));
  CHECK(w.check(0) == ReplayVerdict::DUPLICATE);
  CHECK(take(w, 1));
  CHECK(w.check(1) == ReplayVerdict::DUPLICATE);
  CHECK(w.check(0) == ReplayVerdict::DUPLICATE);
}

TEST_CASE("reordered counters within the window are each accepted exactly once") {
  ReplayWindow w;
  std::vector<uint64_t> order(2048);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 gen(42);
  std::shuffle(order.begin(), order.end(), gen);
  for (uint64_t c : order) CHECK(take(w, c));
  for (uint64_t c : order) CHECK(w.check(c) == ReplayVerdict::DUPLICATE);
  CHECK(w.highest() == 2047);
}

TEST_CASE("window edges: highest-2047 still inside, highest-2048 too old") {
  ReplayWindow w;
  CHECK(take(w, 5000));
  CHECK(w.check(5000 - 2047) == ReplayVerdict::FRESH);
  CHECK(w.check(5000 - 2048) == ReplayVerdict::TOO_OLD);
  CHECK(take(w, 5000 - 2047));
  CHECK(w.check(5000 - 2047) == ReplayVerdict::DUPLICATE);
  CHECK(take(w, 5001));  // slides: 5000-2047 is now 2048 behind
  CHECK(w.check(5000 - 2047) == ReplayVerdict::TOO_OLD);
  CHECK(w.check(5000) == ReplayVerdict::DUPLICATE);
}

TEST_CASE("far-future counter resets the bitmap; the gap behind it stays fresh") {
  ReplayWindow w;
  for (uint64_t c = 0; c < 100; ++c) CHECK(take(w, c));
  CHECK(take(w, 1'000'000));
  CHECK(w.check(99) == ReplayVerdict::TOO_OLD);
  CHECK(w.check(1'000'000 - 1) == ReplayVerdict::FRESH);
  CHECK(w.check(1'000'000 - 2047) == ReplayVerdict::FRESH);
  CHECK(take(w, UINT64_MAX - 1));
  CHECK(w.check(1'000'000) == ReplayVerdict::TOO_OLD);
  CHECK(w.check(UINT64_MAX - 1) == ReplayVerdict::DUPLICATE);
}

TEST_CASE("shifts across word boundaries keep the right bits") {
  ReplayWindow w;
  const std::vector<uint64_t> seen{0, 3, 63, 64, 65, 127, 128, 700};
  for (uint64_t c : seen) CHECK(take(w, c));
  CHECK(take(w, 700 + 129));  // shift by 129: one word and one bit
  for (uint64_t c : seen) CHECK(w.check(c) == ReplayVerdict::DUPLICATE);
  for (uint64_t c : std::vector<uint64_t>{1, 2, 62, 66, 126, 129, 699, 701}) {
    CHECK(w.check(c) == ReplayVerdict::FRESH);
  }
}

}  // namespace
}  // namespace fips::router::noise
