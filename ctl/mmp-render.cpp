// SPDX-License-Identifier: MIT
// show mmp output and the MMP/traffic blocks of show peers|links (see
// mmp-render.h).
#include "ctl/mmp-render.h"

#include <fmt/format.h>

#include "ctl/table.h"

namespace fips::ctl {

namespace {

// Goodput for the table: bytes per second with a unit, "-" when unmeasured.
std::string rate(double bytesPerSec) {
  if (bytesPerSec <= 0.0) return "-";
  if (bytesPerSec >= 1e6) return fmt::format("{:.1f}MB/s", bytesPerSec / 1e6);
  if (bytesPerSec >= 1e3) return fmt::format("{:.1f}KB/s", bytesPerSec / 1e3);
  return fmt::format("{:.0f}B/s", bytesPerSec);
}

}  // namespace

std::string mmpTable(capnp::List<schema::PeerStatus>::Reader peers) {
  if (peers.size() == 0) return "no peers\n";
  std::vector<std::vector<std::string>> rows = {
      {"PEER", "MODE", "SRTT", "LOSS", "ETX", "JITTER", "GOODPUT", "COST", "TX PKTS", "RX PKTS"}};
  for (auto p : peers) {
    const auto m = p.getMmp();
    const auto s = p.getStats();
    rows.push_back({p.getDisplayName(), m.getMode(),
                    m.getHasSrtt() ? fmt::format("{:.1f}ms", m.getSrttMs()) : "-",
                    fmt::format("{:.1f}%", m.getLossRate() * 100.0),
                    fmt::format("{:.2f}", m.getEtx()),
                    fmt::format("{:.1f}ms", m.getJitterUs() / 1000.0), rate(m.getGoodputBps()),
                    fmt::format("{:.2f}", m.getLinkCost()), std::to_string(s.getPacketsSent()),
                    std::to_string(s.getPacketsRecv())});
  }
  return formatTable(rows);
}

}  // namespace fips::ctl
