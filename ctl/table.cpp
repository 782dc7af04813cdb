// SPDX-License-Identifier: MIT
// Text tables (see table.h).
#include "ctl/table.h"

#include <algorithm>

#include <fmt/format.h>

namespace fips::ctl {

std::string formatTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string formatDuration(uint64_t secs) {
  if (secs < 60) return fmt::format("{}s", secs);
  if (secs < 3600) return fmt::format("{}m{:02}s", secs / 60, secs % 60);
  if (secs < 86400) return fmt::format("{}h{:02}m", secs / 3600, secs % 3600 / 60);
  return fmt::format("{}d{:02}h", secs / 86400, secs % 86400 / 3600);
}

uint64_t secondsSince(uint64_t thenMs, uint64_t nowMs) {
  return nowMs > thenMs ? (nowMs - thenMs) / 1000 : 0;
}

}  // namespace fips::ctl
