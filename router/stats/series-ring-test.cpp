// SPDX-License-Identifier: MIT
// SeriesRing: newest-last tails, NaN front padding, wrap-around, and a
// reader on another thread that never sees a torn window.
#include "router/stats/series-ring.h"

#include <cmath>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

namespace fips::router::stats {
namespace {

TEST_CASE("a short ring pads the front with NaN") {
  SeriesRing<8> ring;
  ring.push(1);
  ring.push(2);
  std::vector<float> out(4);
  ring.copyTail(out);
  CHECK(std::isnan(out[0]));
  CHECK(std::isnan(out[1]));
  CHECK(out[2] == 1);
  CHECK(out[3] == 2);
  CHECK(ring.pushes() == 2);
}

TEST_CASE("the ring wraps: the oldest samples are overwritten") {
  SeriesRing<5> ring;
  for (int i = 0; i < 12; ++i) ring.push(static_cast<float>(i));
  std::vector<float> all(5);
  ring.copyTail(all);
  CHECK(all == std::vector<float>{7, 8, 9, 10, 11});
  std::vector<float> two(2);
  ring.copyTail(two);
  CHECK(two == std::vector<float>{10, 11});
  // Asking for more than the capacity: the extra front is NaN.
  std::vector<float> more(7);
  ring.copyTail(more);
  CHECK(std::isnan(more[0]));
  CHECK(std::isnan(more[1]));
  CHECK(more[2] == 7);
  CHECK(more[6] == 11);
}

TEST_CASE("an empty window and an empty ring") {
  SeriesRing<4> ring;
  std::vector<float> none;
  ring.copyTail(none);
  std::vector<float> out(3);
  ring.copyTail(out);
  for (float v : out) CHECK(std::isnan(v));
}

// The writer pushes 0, 1, 2, ...: any window a reader copies must be
// consecutive (or NaN where a sample was lost to a wrap during the copy).
TEST_CASE("a concurrent reader sees consecutive samples") {
  SeriesRing<64> ring;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; i < 200000; ++i) ring.push(static_cast<float>(i));
    stop.store(true);
  });
  size_t bad = 0;
  std::vector<float> out(64);
  while (!stop.load()) {
    ring.copyTail(out);
    for (size_t i = 1; i < out.size(); ++i) {
      if (std::isnan(out[i - 1]) || std::isnan(out[i])) continue;
      if (out[i] != out[i - 1] + 1) ++bad;
    }
  }
  writer.join();
  CHECK(bad == 0);
}

}  // namespace
}  // namespace fips::router::stats
