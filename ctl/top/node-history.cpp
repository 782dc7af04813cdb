// SPDX-License-Identifier: MIT
// fipstop's copy of the daemon's stats history (see node-history.h).
#include "ctl/top/node-history.h"

namespace fips::ctl::top {

void NodeHistory::set(capnp::List<schema::StatsSeries>::Reader series,
                      const HistoryWindow& window) {
  series_.clear();
  for (auto s : series) {
    Series copy{s.getMetric(), s.getUnit(), s.getGranularitySeconds(), {}};
    copy.values.reserve(s.getValues().size());
    for (double v : s.getValues()) copy.values.push_back(v);
    series_.push_back(std::move(copy));
  }
  reason_.clear();
  window_ = window.label;
}

void NodeHistory::unavailable(std::string reason) {
  series_.clear();
  reason_ = std::move(reason);
  window_.clear();
}

const Series* NodeHistory::find(const std::string& metric) const {
  for (const auto& s : series_)
    if (s.metric == metric) return &s;
  return nullptr;
}

}  // namespace fips::ctl::top
