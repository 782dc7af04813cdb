// SPDX-License-Identifier: MIT
// AllowTable: the per-channel state table checked before dispatch (the
// OpenSSH monitor's mon_table, as code). Each rule says in which states a
// message kind is legal and how often; a message outside the table is an
// IPC contract violation, fatal to the receiver. Used by every process that
// receives on a privsep channel.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace fips::privsep {

// One rule: message kind `which` is legal in the states whose bit is set in
// `stateMask` (bit i = state i), at most `maxCount` times (0 = unlimited).
template <typename Which>
struct AllowRule {
  Which which;
  uint32_t stateMask;
  uint32_t maxCount;
};

// Checks received message kinds against a fixed rule list and counts them.
template <typename Which, size_t N>
class AllowTable {
 public:
  constexpr explicit AllowTable(std::array<AllowRule<Which>, N> rules) : rules_(rules) {}

  // True (and counted) if `which` is legal in `state` and under its count;
  // false if the message must be treated as a contract violation.
  bool admit(Which which, uint32_t state) {
    for (size_t i = 0; i < N; ++i) {
      const auto& rule = rules_[i];
      if (rule.which != which) continue;
      if ((rule.stateMask & (1u << state)) == 0) return false;
      if (rule.maxCount != 0 && counts_[i] >= rule.maxCount) return false;
      ++counts_[i];
      return true;
    }
    return false;
  }

 private:
  std::array<AllowRule<Which>, N> rules_;
  std::array<uint32_t, N> counts_{};
};

// Bit for state `s` (an enum class with small values) in a rule's mask.
template <typename State>
constexpr uint32_t stateBit(State s) {
  return 1u << static_cast<uint32_t>(s);
}

}  // namespace fips::privsep
