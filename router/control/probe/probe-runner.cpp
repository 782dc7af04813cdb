// SPDX-License-Identifier: MIT
// ProbeRunner (see probe-runner.h).
//
// A job's calls: start admits it and sends the first call (startLookup);
// its answer resolves the client's promise and then becomes the job's
// driver, owned here (not by the client's connection): wait until
// nextPollMs, call (a probe call, or the teardown call once the verdict is
// settled and the job owns a session), take the answer, repeat until the
// job finishes. Removing a job (poll of a terminal one, expiry) or
// cancelling it drops its driver, which cancels a wait or a call in flight
// (the bridge ignores the late reply's fulfiller); a cancel then makes the
// teardown call itself.
#include "router/control/probe/probe-runner.h"

#include <optional>

#include <capnp/serialize.h>

#include "router/control/json/line.h"
#include "router/control/json/snapshot-text.h"

namespace fips::router::control {

ProbeRunner::ProbeRunner(CommandBridge& bridge, kj::Timer& timer)
    : bridge_(bridge), timer_(timer) {}

uint64_t ProbeRunner::nowMs() const {
  return static_cast<uint64_t>((timer_.now() - kj::origin<kj::TimePoint>()) / kj::MILLISECONDS);
}

kj::Promise<CommandOutcome> ProbeRunner::send(const std::string& npub, const ProbeJob& job) {
  return bridge_.send([npub, startLookup = job.startLookup(), owned = job.ownedSessionMs(),
                       teardown = job.teardownDue()](schema::ControlCommand::Builder command) {
    auto probe = command.initProbe();
    probe.setNpub(npub.c_str());
    probe.setStartLookup(startLookup);
    probe.setOwnedSessionMs(owned);
    probe.setTeardown(teardown);
  });
}

void ProbeRunner::take(ProbeJob& job, const CommandOutcome& outcome, bool teardown) {
  if (!outcome.ok || outcome.probe.size() == 0) return job.abandon(nowMs());
  capnp::FlatArrayMessageReader reader(outcome.probe);
  auto report = reader.getRoot<schema::ProbeReport>();
  if (teardown) return job.onTeardown(report.getCleanup().cStr(), nowMs());
  job.onReport(report, nowMs());
}

void ProbeRunner::reap() {
  registry_.reap(nowMs());
  for (auto it = running_.begin(); it != running_.end();) {
    it = registry_.find(it->first) == nullptr ? running_.erase(it) : std::next(it);
  }
}

kj::Promise<Json> ProbeRunner::start(const std::string& npub) {
  reap();
  const auto id = registry_.admit(nowMs());
  if (!id) return errorResponse("too many probes in flight");
  auto answered = kj::newPromiseAndFulfiller<Json>();
  auto first =
      timer_.timeoutAfter(JSON_IO_TIMEOUT, send(npub, *registry_.find(*id)))
          .then([](CommandOutcome outcome) { return std::optional(kj::mv(outcome)); },
                [](kj::Exception&&) { return std::optional<CommandOutcome>(); })
          .then([this, id = *id, npub, client = kj::mv(answered.fulfiller)](
                    std::optional<CommandOutcome> outcome) mutable -> kj::Promise<void> {
            ProbeJob* job = registry_.find(id);
            if (!outcome || !outcome->ok || outcome->probe.size() == 0 || job == nullptr) {
              registry_.remove(id);
              client->fulfill(errorResponse(
                  !outcome ? "query timeout" : (outcome->ok ? "no probe report" : outcome->error)));
              return kj::READY_NOW;
            }
            capnp::FlatArrayMessageReader reader(outcome->probe);
            auto report = reader.getRoot<schema::ProbeReport>();
            job->onReport(report, nowMs());
            client->fulfill(okResponse(Json{{"probe_id", id},
                                            {"npub", npub},
                                            {"node_addr", json::hex(report.getTargetNodeAddr())},
                                            {"display_name", report.getTargetDisplayName().cStr()},
                                            {"budget_ms", job->budgetMs()}}));
            return drive(id);
          });
  // A driver that fails (a broken bridge) ends its job, so it stops
  // counting against the cap.
  running_.insert_or_assign(*id,
                            Running{npub, first.eagerlyEvaluate([this, id = *id](kj::Exception&&) {
                                      if (ProbeJob* job = registry_.find(id)) job->abandon(nowMs());
                                    })});
  return kj::mv(answered.promise);
}

kj::Promise<void> ProbeRunner::drive(uint64_t id) {
  ProbeJob* job = registry_.find(id);
  auto it = running_.find(id);
  if (job == nullptr || job->finished() || it == running_.end()) return kj::READY_NOW;
  const auto at = kj::origin<kj::TimePoint>() + job->nextPollMs() * kj::MILLISECONDS;
  return timer_.atTime(at).then([this, id, npub = it->second.npub]() -> kj::Promise<void> {
    ProbeJob* due = registry_.find(id);
    if (due == nullptr) return kj::READY_NOW;
    const bool teardown = due->teardownDue();
    return send(npub, *due).then([this, id, teardown](CommandOutcome outcome) -> kj::Promise<void> {
      ProbeJob* current = registry_.find(id);
      if (current == nullptr) return kj::READY_NOW;
      take(*current, outcome, teardown);
      return drive(id);
    });
  });
}

Json ProbeRunner::poll(uint64_t id) {
  reap();
  auto data = registry_.poll(id, nowMs());
  if (!data) return errorResponse("unknown probe id: " + std::to_string(id));
  if (registry_.find(id) == nullptr) running_.erase(id);
  return okResponse(std::move(*data));
}

kj::Promise<Json> ProbeRunner::cancel(uint64_t id) {
  reap();
  auto it = running_.find(id);
  ProbeJob* job = registry_.find(id);
  const bool wasRunning = job != nullptr && !job->finished();
  if (!registry_.cancel(id, nowMs())) {
    return errorResponse("unknown probe id: " + std::to_string(id));
  }
  Json done = okResponse(Json{{"probe_id", id}, {"cancelled", true}});
  if (!wasRunning || it == running_.end() || !job->teardownDue()) {
    running_.erase(id);
    return kj::mv(done);
  }
  // The driver goes (a wait or call in flight with it); the teardown call
  // runs now, and the answer waits for it.
  const std::string npub = it->second.npub;
  it->second.driver = nullptr;
  return timer_.timeoutAfter(JSON_IO_TIMEOUT, send(npub, *job))
      .then([](CommandOutcome outcome) { return std::optional(kj::mv(outcome)); },
            [](kj::Exception&&) { return std::optional<CommandOutcome>(); })
      .then([this, id, done = kj::mv(done)](std::optional<CommandOutcome> outcome) mutable {
        if (ProbeJob* current = registry_.find(id)) {
          if (outcome) {
            take(*current, *outcome, true);
          } else {
            current->abandon(nowMs());
          }
        }
        running_.erase(id);
        return kj::mv(done);
      });
}

}  // namespace fips::router::control
