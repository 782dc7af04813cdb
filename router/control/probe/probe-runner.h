// SPDX-License-Identifier: MIT
// ProbeRunner: serves the JSON-line socket's probe_start, probe_poll and
// probe_cancel (docs/reference/control-socket.md) from a ProbeRegistry,
// and drives each job's probe calls to the data plane (CommandBridge) on
// the control thread's event loop, one call per PROBE_POLL_INTERVAL_MS and
// the teardown call of a session the probe opened, without holding any
// client's connection: start returns once the first call is answered,
// poll at once, cancel once the teardown (if any) is done. Runs on the control thread of
// fips-router; npubs come from local clients and were checked by the
// dispatcher (the data plane checks them again).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <kj/async.h>
#include <kj/timer.h>

#include "router/control/json/line.h"
#include "router/control/probe/probe-registry.h"
#include "router/control/snapshot/command-bridge.h"

namespace fips::router::control {

class ProbeRunner {
 public:
  // `bridge` and `timer` must outlive the runner.
  ProbeRunner(CommandBridge& bridge, kj::Timer& timer);

  // probe_start: admits a job for `npub` and makes its first call (which
  // starts the lookup). Resolves to the response envelope: data {probe_id,
  // npub, node_addr, display_name, budget_ms}, or "too many probes in
  // flight", the data plane's error ("cannot probe this node"), or "query
  // timeout" after JSON_IO_TIMEOUT. The job runs on if the caller goes away.
  kj::Promise<Json> start(const std::string& npub);
  // probe_poll: {state, report}; a terminal job is removed (report
  // delivered once); "unknown probe id: <id>" otherwise.
  Json poll(uint64_t id);
  // probe_cancel: ends the job now, tears down the session it opened (the
  // teardown call, at once: no grace tick) and keeps it for one poll:
  // {probe_id, cancelled: true}, or "unknown probe id: <id>".
  kj::Promise<Json> cancel(uint64_t id);

  size_t jobCount() const { return registry_.size(); }

 private:
  // One call for the job: a probe call, or its teardown call when due.
  kj::Promise<CommandOutcome> send(const std::string& npub, const ProbeJob& job);
  // Gives the job the call's answer at nowMs: a report, a teardown outcome,
  // or (a failed call) abandon.
  void take(ProbeJob& job, const CommandOutcome& outcome, bool teardown);
  // Calls again at the job's next poll time until it finishes.
  kj::Promise<void> drive(uint64_t id);
  // Drops jobs (and their drivers) past their expiry.
  void reap();
  uint64_t nowMs() const;

  CommandBridge& bridge_;
  kj::Timer& timer_;
  ProbeRegistry registry_;
  struct Running {
    std::string npub;
    kj::Promise<void> driver = nullptr;
  };
  std::map<uint64_t, Running> running_;  // by id, as registry_
};

}  // namespace fips::router::control
