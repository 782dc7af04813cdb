// SPDX-License-Identifier: MIT
// Sparklines and plots (see sparkline.h).
#include "ctl/top/sparkline.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fips::ctl::top {

namespace {

// U+2581..U+2588, lower one eighth block to full block.
constexpr const char* BLOCKS[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                   "\u2585", "\u2586", "\u2587", "\u2588"};

std::span<const double> tail(std::span<const double> values, size_t width) {
  return values.size() > width ? values.subspan(values.size() - width) : values;
}

}  // namespace

std::string sparkline(std::span<const double> values) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (double v : values) {
    if (std::isnan(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const double range = hi - lo;
  std::string out;
  for (double v : values) {
    if (std::isnan(v)) {
      out += ' ';
      continue;
    }
    size_t level = v > 0 ? 7 : 0;  // constant series: see sparkline.h
    if (std::isfinite(range) && range > 0) {
      const double norm = std::clamp((v - lo) / range, 0.0, 1.0);
      level = std::min<size_t>(7, static_cast<size_t>(std::lround(norm * 7)));
    }
    out += BLOCKS[level];
  }
  return out;
}

std::string sparklineTail(std::span<const double> values, size_t width) {
  return sparkline(tail(values, width));
}

std::span<const double> withoutLeadingGaps(std::span<const double> values) {
  size_t first = 0;
  while (first < values.size() && std::isnan(values[first])) ++first;
  return values.subspan(first);
}

std::vector<double> fitWidth(std::span<const double> values, size_t width) {
  if (values.size() <= width) return {values.begin(), values.end()};
  std::vector<double> points;
  points.reserve(width);
  for (size_t i = 0; i < width; ++i) {
    const size_t begin = i * values.size() / width;
    const size_t end = (i + 1) * values.size() / width;
    double sum = 0;
    size_t count = 0;
    for (size_t j = begin; j < end; ++j) {
      if (std::isnan(values[j])) continue;
      sum += values[j];
      ++count;
    }
    points.push_back(count == 0 ? std::nan("") : sum / double(count));
  }
  return points;
}

double lastValue(std::span<const double> values) {
  for (size_t i = values.size(); i > 0; --i)
    if (!std::isnan(values[i - 1])) return values[i - 1];
  return std::nan("");
}

std::vector<std::string> plotRows(std::span<const double> values, size_t width, size_t height) {
  std::vector<std::string> rows(height);
  if (height == 0 || width == 0) return rows;
  const auto shown = tail(values, width);
  double peak = 0;
  for (double v : shown)
    if (std::isfinite(v)) peak = std::max(peak, v);
  for (double v : shown) {
    // Eighths of a row this bar fills, 0 .. height*8.
    size_t eighths = 0;
    if (peak > 0 && std::isfinite(v) && v > 0)
      eighths = static_cast<size_t>(std::lround(std::min(v / peak, 1.0) * double(height * 8)));
    if (v > 0 && eighths == 0) eighths = 1;
    for (size_t r = 0; r < height; ++r) {
      const size_t floor = (height - 1 - r) * 8;  // eighths below this row
      if (eighths >= floor + 8) {
        rows[r] += BLOCKS[7];
      } else if (eighths > floor) {
        rows[r] += BLOCKS[eighths - floor - 1];
      } else {
        rows[r] += ' ';
      }
    }
  }
  return rows;
}

size_t displayWidth(const std::string& text) {
  size_t n = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

std::string clipToWidth(const std::string& text, size_t width) {
  size_t columns = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (columns == width) return text.substr(0, i);
      ++columns;
    }
  }
  return text;
}

}  // namespace fips::ctl::top
