// SPDX-License-Identifier: MIT
// stats list|peers|history output (see stats-render.h).
#include "ctl/stats-render.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "ctl/table.h"
#include "router/control/json/snapshot-text.h"
#include "router/stats/history-metric.h"

namespace fips::ctl {

namespace {

std::vector<double> valuesOf(schema::StatsSeries::Reader series) {
  std::vector<double> values;
  values.reserve(series.getValues().size());
  for (double v : series.getValues()) values.push_back(v);
  return values;
}

// "%g"-like text without exponent for the usual magnitudes: 12, 0.25, 1500000.
std::string valueText(double v) {
  if (std::isnan(v)) return "-";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3f}", v);
}

// "note: window cut to ..." and '\n' when the daemon cut the window to
// its ring's retention, else "".
std::string windowCutNote(schema::StatsSeries::Reader series) {
  const uint64_t asked = series.getWindowCutFromSeconds();
  if (asked == 0) return "";
  const bool fast = series.getGranularitySeconds() == 1;
  const auto ring = fast ? router::stats::Granularity::FAST : router::stats::Granularity::SLOW;
  return fmt::format(
      "note: window cut to {}, all the {} ring keeps (asked for {}){}\n",
      formatDuration(router::stats::retentionSeconds(ring)), fast ? "1s" : "1m",
      formatDuration(asked),
      fast ? fmt::format(
                 "; --granularity 1m reaches {}",
                 formatDuration(router::stats::retentionSeconds(router::stats::Granularity::SLOW)))
           : "");
}

}  // namespace

std::string statsListTable(schema::StatsList::Reader list) {
  std::vector<std::vector<std::string>> rows{{"METRIC", "SCOPE", "UNIT"}};
  for (auto m : list.getMetrics()) {
    rows.push_back({m.getName().cStr(), m.getScope().cStr(), m.getUnit().cStr()});
  }
  return formatTable(rows) +
         fmt::format("\n1s samples kept {}, 1m samples kept {}, absent peers kept {}\n",
                     formatDuration(list.getFastRingSeconds()),
                     formatDuration(uint64_t{list.getSlowRingMinutes()} * 60),
                     formatDuration(list.getPeerRetentionSeconds()));
}

std::string statsPeersTable(capnp::List<schema::StatsPeer>::Reader peers) {
  if (peers.size() == 0) return "no peers tracked in stats history\n";
  std::vector<std::vector<std::string>> rows{
      {"PEER", "ACTIVE", "FIRST SEEN", "LAST CONTACT", "NPUB"}};
  for (auto p : peers) {
    rows.push_back({p.getDisplayName().cStr(), p.getIsActive() ? "yes" : "no",
                    formatDuration(p.getFirstSeenSecsAgo()) + " ago",
                    formatDuration(p.getLastContactSecsAgo()) + " ago", p.getNpub().cStr()});
  }
  return formatTable(rows);
}

std::string seriesTable(schema::StatsSeries::Reader series) {
  const auto values = series.getValues();
  std::string out =
      fmt::format("{} ({}), {} samples @ {}s\n", series.getMetric().cStr(), series.getUnit().cStr(),
                  values.size(), series.getGranularitySeconds());
  out += windowCutNote(series);
  // Short windows are padded with gaps, so no sample at all means the
  // window (0s, or 30s at 1m) held less than one step, as in the reference.
  if (values.size() == 0) {
    return out + fmt::format("note: no samples: the window is shorter than one {}s step\n",
                             series.getGranularitySeconds());
  }
  std::vector<std::vector<std::string>> rows{{"AGE", "VALUE"}};
  for (unsigned i = 0; i < values.size(); ++i) {
    const uint64_t age = uint64_t{values.size() - 1 - i} * series.getGranularitySeconds();
    rows.push_back({age == 0 ? "0s" : "-" + formatDuration(age), valueText(values[i])});
  }
  return out + formatTable(rows);
}

std::string seriesPlot(schema::StatsSeries::Reader series, size_t columns) {
  const std::string metric = series.getMetric().cStr();
  const std::vector<double> values = valuesOf(series);
  if (values.empty()) return metric + ": no data yet\n";
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  size_t gaps = 0;
  double last = std::nan("");
  for (double v : values) {
    if (std::isnan(v)) {
      ++gaps;
      continue;
    }
    min = std::min(min, v);
    max = std::max(max, v);
    last = v;
  }
  if (!std::isfinite(min)) min = max = 0;
  const uint32_t g = series.getGranularitySeconds();
  std::string out =
      fmt::format("{} ({}) \u2014 {} samples @ {}s = {}s window{}\n", metric,
                  series.getUnit().cStr(), values.size(), g, uint64_t{values.size()} * g,
                  gaps > 0 ? fmt::format(" ({} gaps)", gaps) : "");
  out += fmt::format("  min={:.3f} max={:.3f} last={}\n", min, max,
                     std::isnan(last) ? "-" : fmt::format("{:.3f}", last));
  const size_t width = columns > PLOT_INDENT ? columns - PLOT_INDENT : 0;
  if (width == 0 || values.size() <= width) {
    return out + "  " + sparkline(values, min, max) + "\n" + windowCutNote(series);
  }
  const std::vector<double> shown = downsample(values, width);
  out += "  " + sparkline(shown, min, max) + "\n";
  out +=
      fmt::format("  ({} samples in {} columns: each the mean of {}-{} samples)\n", values.size(),
                  width, values.size() / width, (values.size() + width - 1) / width);
  return out + windowCutNote(series);
}

std::vector<double> downsample(std::span<const double> values, size_t width) {
  if (width == 0 || values.size() <= width) return {values.begin(), values.end()};
  std::vector<double> out;
  out.reserve(width);
  for (size_t i = 0; i < width; ++i) {
    const size_t begin = i * values.size() / width;
    const size_t end = (i + 1) * values.size() / width;
    double sum = 0;
    size_t n = 0;
    for (size_t j = begin; j < end; ++j) {
      if (std::isnan(values[j])) continue;
      sum += values[j];
      ++n;
    }
    out.push_back(n == 0 ? std::nan("") : sum / static_cast<double>(n));
  }
  return out;
}

std::string sparkline(std::span<const double> values, double min, double max) {
  static constexpr const char* BLOCKS[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                           "\u2585", "\u2586", "\u2587", "\u2588"};
  constexpr size_t LEVELS = std::size(BLOCKS);
  const double range = max - min;
  std::string out;
  for (double v : values) {
    if (std::isnan(v)) {
      out += ' ';
    } else if (!std::isfinite(range) || range <= 0) {
      out += BLOCKS[3];
    } else {
      const double norm = std::clamp((v - min) / range, 0.0, 1.0);
      const auto level = static_cast<size_t>(std::lround(norm * (LEVELS - 1)));
      out += BLOCKS[std::min(level, LEVELS - 1)];
    }
  }
  return out;
}

}  // namespace fips::ctl
