// SPDX-License-Identifier: MIT
// ProbeRegistry: the JSON-line socket's probe jobs (the reference's
// src/node/handlers/probe.rs registry), sans-IO: ids from 1, a cap on jobs
// in flight, the report delivered once (a terminal job is removed by the
// poll that sees it), cancel, and the expiry of terminal jobs nobody
// collected. ProbeRunner drives the jobs' calls; the clock (monotonic ms)
// is passed in. Runs on the control thread of fips-router.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "router/control/json/line.h"
#include "router/control/probe/probe-job.h"

namespace fips::router::control {

// The reference's limits (src/proto/probe/limits.rs): unfinished jobs at
// once, and how long a terminal job waits for its poll (ms).
constexpr size_t MAX_CONCURRENT_PROBES = 4;
constexpr uint64_t PROBE_REAP_MS = 30'000;
// This build's bound on terminal jobs kept for a poll (the oldest go first),
// so that clients starting probes they never poll cannot grow the registry.
constexpr size_t MAX_RETAINED_PROBES = 64;

class ProbeRegistry {
 public:
  // Admits a job starting at nowMs and returns its id, or nullopt when
  // MAX_CONCURRENT_PROBES jobs are unfinished (terminal ones do not count).
  std::optional<uint64_t> admit(uint64_t nowMs, uint64_t timeoutMs = 0);
  // The job, or nullptr (unknown or already collected).
  ProbeJob* find(uint64_t id);
  void remove(uint64_t id);
  // probe_poll's data {"state": "running"|"done", "report": ...} (report
  // null before the job's first report), or nullopt for an unknown id. A
  // terminal job is removed: its report is delivered once.
  std::optional<Json> poll(uint64_t id, uint64_t nowMs);
  // Ends the job now (ProbeJob::cancel); it stays for one poll. False for
  // an unknown id.
  bool cancel(uint64_t id, uint64_t nowMs);
  // Drops terminal jobs finished PROBE_REAP_MS ago or more, then the
  // oldest terminal ones beyond MAX_RETAINED_PROBES.
  void reap(uint64_t nowMs);
  size_t size() const { return jobs_.size(); }

 private:
  std::map<uint64_t, ProbeJob> jobs_;  // by id: oldest first
  uint64_t nextId_ = 1;
};

}  // namespace fips::router::control
