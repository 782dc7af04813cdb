// SPDX-License-Identifier: MIT
// The daemon's answers to one fipstop poll, copied into one owned
// NodeSnapshot message (a fresh message per poll, so a long run does not
// grow a capnp arena). Runs in fipstop; the contents are the daemon's.
#pragma once

#include <capnp/message.h>

#include "control.capnp.h"

namespace fips::ctl::top {

// The answers of one poll. The `has*` flags say which queries answered.
struct Answers {
  Answers() : snapshot(message.initRoot<schema::NodeSnapshot>()) {}

  capnp::MallocMessageBuilder message;
  schema::NodeSnapshot::Builder snapshot;
  bool hasStatus = false;
  bool hasPeers = false;
  bool hasLinks = false;
  bool hasTransports = false;
  bool hasCounters = false;
  bool hasTree = false;
  bool hasBloom = false;
  bool hasCache = false;
  bool hasSessions = false;
  bool hasRouting = false;
};

}  // namespace fips::ctl::top
