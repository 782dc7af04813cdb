// SPDX-License-Identifier: MIT
// Tests for AllowTable: state masks, counts, and unknown kinds.
#include "privsep/allow-table.h"

#include <doctest/doctest.h>

namespace {
enum class Kind { HELLO, READY, DATA, OTHER };
enum class State { START, RUNNING };
}  // namespace

TEST_CASE("allow table admits by state and count") {
  using fips::privsep::AllowRule;
  using fips::privsep::stateBit;
  fips::privsep::AllowTable<Kind, 3> table(std::array<AllowRule<Kind>, 3>{{
      AllowRule<Kind>{Kind::HELLO, stateBit(State::START), 1},
      AllowRule<Kind>{Kind::READY, stateBit(State::RUNNING), 1},
      AllowRule<Kind>{Kind::DATA, stateBit(State::RUNNING), 0},
  }});
  auto start = static_cast<uint32_t>(State::START);
  auto running = static_cast<uint32_t>(State::RUNNING);
  CHECK(table.admit(Kind::HELLO, start));
  CHECK_FALSE(table.admit(Kind::HELLO, start));
  CHECK_FALSE(table.admit(Kind::READY, start));
  CHECK(table.admit(Kind::READY, running));
  CHECK_FALSE(table.admit(Kind::READY, running));
  for (int i = 0; i < 100; ++i) CHECK(table.admit(Kind::DATA, running));
  CHECK_FALSE(table.admit(Kind::OTHER, running));
}
