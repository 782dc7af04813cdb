// SPDX-License-Identifier: MIT
// Helpers shared by fipstop's view tests (tab-views-test, width-test).
// Test-only code.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>

#include "ctl/test-snapshot.h"
#include "ctl/top/answers.h"
#include "ctl/top/tab-views.h"
#include "ctl/top/top-data.h"

namespace fips::ctl::test {

// The shared snapshot (ctl/test-snapshot.h) as fipstop's answers, every
// query answered.
inline top::TopData answeredFixture() {
  top::TopData data;
  data.everConnected = true;
  data.nowUnixMs = NOW_MS;
  data.refreshSecs = 2;
  top::Answers& a = *data.answers;
  fillSnapshot(a.snapshot);
  a.hasStatus = a.hasPeers = a.hasLinks = a.hasTransports = a.hasCounters = true;
  a.hasTree = a.hasBloom = a.hasCache = a.hasSessions = a.hasRouting = true;
  return data;
}

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
