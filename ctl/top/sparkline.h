// SPDX-License-Identifier: MIT
// Unicode block sparklines and multi-row plots for fipstop (the reference's
// helpers::sparkline: eight levels, U+2581..U+2588, scaled between the
// series' minimum and maximum). A constant series draws as plotRows draws
// it, whatever the metric: full blocks when positive, the lowest block
// when zero (the reference puts it at the middle level).
// Pure functions; every glyph is one terminal column wide.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace fips::ctl::top {

// One glyph per value, a space for a gap (NaN), "" for an empty series.
// A varying series is scaled from its minimum (U+2581) to its maximum
// (U+2588); a constant one is all U+2588 when its value is above zero and
// all U+2581 when it is zero (or below), as plotRows' 0-to-peak scale.
std::string sparkline(std::span<const double> values);

// The last `width` values as a sparkline (all of them when fewer).
std::string sparklineTail(std::span<const double> values, size_t width);

// `values` without the gaps before the first sample.
std::span<const double> withoutLeadingGaps(std::span<const double> values);

// `values` squeezed into at most `width` points: each point the mean of
// the samples of its equal share of the series (gaps skipped; a share of
// gaps only stays a gap). Fewer values than width are returned as they are.
std::vector<double> fitWidth(std::span<const double> values, size_t width);

// The newest sample that is not a gap; NaN when there is none.
double lastValue(std::span<const double> values);

// The last `width` values as `height` text rows, top row first, each bar
// rising from the bottom row and scaled from 0 to the series' maximum (an
// all-zero series is blank; a positive value shows at least one eighth).
// Each row is min(width, values.size()) glyphs long.
std::vector<std::string> plotRows(std::span<const double> values, size_t width, size_t height);

// Number of terminal columns `text` takes: its UTF-8 code points (fipstop
// only prints narrow glyphs).
size_t displayWidth(const std::string& text);

// `text` cut to at most `width` columns, at a code point boundary.
std::string clipToWidth(const std::string& text, size_t width);

}  // namespace fips::ctl::top
