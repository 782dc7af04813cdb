// SPDX-License-Identifier: MIT
// Test helper: a probe report as the data plane answers one call, with the
// stage verdicts a test sets. Used by probe-job-test and
// probe-registry-test only.
#pragma once

#include <capnp/message.h>

#include "control.capnp.h"

namespace fips::router::control {

struct TestReport {
  capnp::MallocMessageBuilder msg;
  schema::ProbeReport::Builder r = msg.initRoot<schema::ProbeReport>();

  // Every stage "verdict"; the lookup ladder 1 s, 2 s (a 4 s discovery
  // budget with the slack).
  explicit TestReport(const char* verdict = "running") {
    r.setTargetNpub("npub1target");
    for (auto s : {r.initBloom(), r.initDiscovery(), r.initPath(), r.initSession(), r.initRtt()}) {
      s.setVerdict(verdict);
    }
    auto ladder = r.initAttemptTimeoutsSecs(2);
    ladder.set(0, 1);
    ladder.set(1, 2);
  }
  TestReport& stage(schema::ProbeStage::Builder s, const char* verdict) {
    s.setVerdict(verdict);
    return *this;
  }
  // At the rtt stage: every stage before it passed, the session established.
  TestReport& measuring() {
    r.setSessionEstablished(true);
    for (auto s : {r.initBloom(), r.initDiscovery(), r.initPath(), r.initSession()}) {
      s.setVerdict("ok");
    }
    return stage(r.initRtt(), "running");
  }
  schema::ProbeReport::Reader get() { return r.asReader(); }
};

}  // namespace fips::router::control
