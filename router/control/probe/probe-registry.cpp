// SPDX-License-Identifier: MIT
// ProbeRegistry (see probe-registry.h).
#include "router/control/probe/probe-registry.h"

#include "router/control/json/probe-json.h"

namespace fips::router::control {

std::optional<uint64_t> ProbeRegistry::admit(uint64_t nowMs, uint64_t timeoutMs) {
  size_t inFlight = 0;
  for (const auto& [id, job] : jobs_) inFlight += job.finished() ? 0 : 1;
  if (inFlight >= MAX_CONCURRENT_PROBES) return std::nullopt;
  const uint64_t id = nextId_++;
  jobs_.emplace(id, ProbeJob(nowMs, timeoutMs));
  return id;
}

ProbeJob* ProbeRegistry::find(uint64_t id) {
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : &it->second;
}

void ProbeRegistry::remove(uint64_t id) {
  jobs_.erase(id);
}

std::optional<Json> ProbeRegistry::poll(uint64_t id, uint64_t nowMs) {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  const ProbeJob& job = it->second;
  Json report = nullptr;
  if (job.hasReport()) {
    report = json::probeJson(job.report(), job.elapsedMs(nowMs));
    report["probe_id"] = id;
    report["overall"] = job.overall();
  }
  Json data{{"state", job.finished() ? "done" : "running"}, {"report", std::move(report)}};
  if (job.finished()) jobs_.erase(it);
  return data;
}

bool ProbeRegistry::cancel(uint64_t id, uint64_t nowMs) {
  ProbeJob* job = find(id);
  if (job == nullptr) return false;
  job->cancel(nowMs);
  return true;
}

void ProbeRegistry::reap(uint64_t nowMs) {
  size_t terminal = 0;
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const auto finishedAt = it->second.finishedAtMs();
    if (finishedAt && nowMs - *finishedAt >= PROBE_REAP_MS) {
      it = jobs_.erase(it);
      continue;
    }
    terminal += finishedAt ? 1 : 0;
    ++it;
  }
  for (auto it = jobs_.begin(); terminal > MAX_RETAINED_PROBES && it != jobs_.end();) {
    if (it->second.finished()) {
      it = jobs_.erase(it);
      --terminal;
    } else {
      ++it;
    }
  }
}

}  // namespace fips::router::control
