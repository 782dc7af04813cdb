// SPDX-License-Identifier: MIT
// What fipstop knows about the daemon: an owned copy of its latest
// answers (one NodeSnapshot message per poll, so a long run does not grow
// a capnp arena), whether the last poll reached it, and the daemon's
// stats history that feeds the sparklines and the Graphs tab. Runs in fipstop; the contents are the
// daemon's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ctl/top/answers.h"
#include "ctl/top/node-history.h"

namespace fips::ctl::top {

struct TopData {
  std::unique_ptr<Answers> answers = std::make_unique<Answers>();
  // "" while connected, else why the daemon could not be reached (one line).
  std::string disconnected;
  bool everConnected = false;
  uint64_t nowUnixMs = 0;    // wall clock of the last poll
  uint64_t refreshSecs = 2;  // -r
  NodeHistory history;
};

}  // namespace fips::ctl::top
