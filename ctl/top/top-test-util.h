// SPDX-License-Identifier: MIT
// Helpers shared by fipstop's view tests (tab-views-test, width-test).
// Test-only code.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>

#include "ctl/top/tab-views.h"

namespace fips::ctl::test {

// The index of the first line of `view` containing every needle, -1 when
// none does.
inline int find(const top::TabView& view, std::initializer_list<std::string> needles) {
  for (size_t i = 0; i < view.lines.size(); ++i) {
    const std::string& text = view.lines[i].text;
    if (std::all_of(needles.begin(), needles.end(),
                    [&](const std::string& n) { return text.find(n) != std::string::npos; }))
      return static_cast<int>(i);
  }
  return -1;
}

}  // namespace fips::ctl::test
