// SPDX-License-Identifier: MIT
// fipstop's tables fitted to the screen's width by dropping and
// narrowing columns (see fitTable in tab-views.h).
#include <algorithm>

#include "ctl/top/sparkline.h"
#include "ctl/top/tab-views.h"

namespace fips::ctl::top {

namespace {

// Every cell of a header-sized row in column `column` cut to `width` by
// `elide`.
void elideColumn(std::vector<TableRow>& rows, size_t columns, size_t column, size_t width,
                 const ColumnFit& fit) {
  for (auto& row : rows)
    if (row.cells.size() == columns) row.cells[column] = fit.elide(row.cells[column], width);
}

// `rows` with only the columns `keep` marks; shorter rows keep what they have.
std::vector<TableRow> keptColumns(const std::vector<TableRow>& rows,
                                  const std::vector<bool>& keep) {
  std::vector<TableRow> out;
  for (const auto& row : rows) {
    TableRow kept{{}, row.selectable};
    for (size_t i = 0; i < row.cells.size(); ++i)
      if (i >= keep.size() || keep[i]) kept.cells.push_back(row.cells[i]);
    out.push_back(std::move(kept));
  }
  return out;
}

}  // namespace

std::vector<TableRow> fitTable(std::vector<TableRow> rows, const std::vector<ColumnFit>& fit,
                               size_t width) {
  if (rows.empty()) return rows;
  const size_t columns = rows[0].cells.size();
  auto fitOf = [&](size_t i) { return i < fit.size() ? fit[i] : ColumnFit{}; };
  for (size_t i = 0; i < columns; ++i)
    if (fitOf(i).maxWidth > 0) elideColumn(rows, columns, i, fitOf(i).maxWidth, fitOf(i));
  std::vector<int> ranks;
  for (size_t i = 0; i < columns; ++i)
    if (fitOf(i).dropRank > 0) ranks.push_back(fitOf(i).dropRank);
  std::sort(ranks.begin(), ranks.end(), std::greater<>());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::vector<bool> keep(columns, true);
  for (size_t step = 0;; ++step) {
    // The next rank to leave out (0: none left), and the kept columns that
    // narrow rather than lose it.
    const int rank = step < ranks.size() ? ranks[step] : 0;
    auto narrows = [&](size_t i) {
      return keep[i] && fitOf(i).minWidth > 0 && fitOf(i).narrowRank >= rank;
    };
    std::vector<size_t> widths = columnWidths(rows);
    size_t total = 0;
    size_t room = 0;  // what those columns can give
    for (size_t i = 0; i < columns; ++i) {
      if (!keep[i]) continue;
      total += widths[i] + 2;
      if (narrows(i) && widths[i] > fitOf(i).minWidth) room += widths[i] - fitOf(i).minWidth;
    }
    if (total <= width) break;
    if (total - std::min(room, total) > width && rank > 0) {
      for (size_t i = 0; i < columns; ++i)
        if (fitOf(i).dropRank == ranks[step]) keep[i] = false;
      continue;
    }
    // Narrow, one column at a time from the one with most room left.
    std::vector<size_t> target = widths;
    for (size_t excess = total - width; excess > 0; --excess) {
      size_t best = columns;
      for (size_t i = 0; i < columns; ++i) {
        const size_t min = fitOf(i).minWidth;
        if (!narrows(i) || target[i] <= min) continue;
        if (best == columns || target[i] - min > target[best] - fitOf(best).minWidth) best = i;
      }
      if (best == columns) break;
      --target[best];
    }
    for (size_t i = 0; i < columns; ++i)
      if (target[i] < widths[i]) elideColumn(rows, columns, i, target[i], fitOf(i));
    break;
  }
  return keptColumns(rows, keep);
}

void appendTable(TabView& view, std::vector<TableRow> rows, int selected,
                 const std::vector<ColumnFit>& fit, size_t width) {
  appendTable(view, fitTable(std::move(rows), fit, width), selected);
}

}  // namespace fips::ctl::top
