// SPDX-License-Identifier: MIT
// Aligned text tables and durations for fipsctl's human output. Runs in
// fipsctl; cells are already-formatted strings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fips::ctl {

// Columns padded to their widest cell, two spaces apart, no trailing space;
// the first row is the header. One line per row, each ending in '\n'.
std::string formatTable(const std::vector<std::vector<std::string>>& rows);

// "42s", "3m05s", "2h07m", "5d03h" (the two largest units).
std::string formatDuration(uint64_t secs);

// Seconds from `thenMs` to `nowMs` (Unix ms), 0 if then is later.
uint64_t secondsSince(uint64_t thenMs, uint64_t nowMs);

}  // namespace fips::ctl
