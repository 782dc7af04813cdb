// SPDX-License-Identifier: MIT
// fipstop's client-side history (see node-history.h).
#include "ctl/top/node-history.h"

namespace fips::ctl::top {

void HistoryRing::push(double value) {
  if (capacity_ == 0) return;
  if (values_.size() == capacity_) values_.erase(values_.begin());
  values_.push_back(value);
}

NodeHistory::NodeHistory() {
  for (const auto& [name, unit] : {std::pair{"peers", ""},
                                   {"links", ""},
                                   {"tree depth", ""},
                                   {"bytes in", "B/s"},
                                   {"bytes out", "B/s"},
                                   {"packets in", "pkt/s"},
                                   {"packets out", "pkt/s"}})
    series_.push_back(Series{name, unit, HistoryRing(CAPACITY)});
}

const Series* NodeHistory::find(const std::string& name) const {
  for (const auto& s : series_)
    if (s.name == name) return &s;
  return nullptr;
}

void NodeHistory::record(const Answers& answers, uint64_t elapsedMs) {
  auto snap = answers.snapshot.asReader();
  if (answers.hasStatus) {
    series_[0].ring.push(snap.getStatus().getPeerCount());
    series_[1].ring.push(snap.getStatus().getLinkCount());
  }
  if (answers.hasTree) series_[2].ring.push(snap.getTree().getDepth());
  if (!answers.hasTransports) return;
  Totals now;
  for (auto t : snap.getTransports()) {
    now.bytesIn += t.getBytesRecv();
    now.bytesOut += t.getBytesSent();
    now.packetsIn += t.getPacketsRecv();
    now.packetsOut += t.getPacketsSent();
  }
  const bool monotonic = now.bytesIn >= totals_.bytesIn && now.bytesOut >= totals_.bytesOut &&
                         now.packetsIn >= totals_.packetsIn && now.packetsOut >= totals_.packetsOut;
  if (haveTotals_ && monotonic && elapsedMs > 0) {
    const double secs = double(elapsedMs) / 1000.0;
    series_[3].ring.push(double(now.bytesIn - totals_.bytesIn) / secs);
    series_[4].ring.push(double(now.bytesOut - totals_.bytesOut) / secs);
    series_[5].ring.push(double(now.packetsIn - totals_.packetsIn) / secs);
    series_[6].ring.push(double(now.packetsOut - totals_.packetsOut) / secs);
  }
  totals_ = now;
  haveTotals_ = true;
}

}  // namespace fips::ctl::top
