// SPDX-License-Identifier: MIT
// ProbeRegistry on a fake clock: ids, the cap on jobs in flight, the
// report delivered once, cancel, and the expiry of uncollected jobs.
#include "router/control/probe/probe-registry.h"

#include <doctest/doctest.h>

#include "router/control/probe/probe-test-report.h"

namespace fips::router::control {
namespace {

TEST_CASE("ProbeRegistry: ids from 1; at most MAX_CONCURRENT_PROBES unfinished jobs") {
  ProbeRegistry registry;
  for (uint64_t id = 1; id <= MAX_CONCURRENT_PROBES; ++id) CHECK(registry.admit(0) == id);
  CHECK_FALSE(registry.admit(0).has_value());
  // A terminal job waiting for its poll does not count against the cap.
  TestReport done("ok");
  registry.find(2)->onReport(done.get(), 10);
  CHECK(registry.admit(10) == MAX_CONCURRENT_PROBES + 1);
  CHECK_FALSE(registry.admit(10).has_value());
}

TEST_CASE("ProbeRegistry: poll reads a running job, and a terminal one once") {
  ProbeRegistry registry;
  const uint64_t id = *registry.admit(0);
  auto before = registry.poll(id, 5);
  REQUIRE(before.has_value());
  CHECK((*before)["state"] == "running");
  CHECK((*before)["report"].is_null());  // no call answered yet

  TestReport m;
  m.measuring();
  registry.find(id)->onReport(m.get(), 10);
  auto running = registry.poll(id, 20);
  REQUIRE(running.has_value());
  CHECK((*running)["state"] == "running");
  CHECK((*running)["report"]["probe_id"] == id);
  CHECK((*running)["report"]["overall"] == "running");
  CHECK((*running)["report"]["elapsed_ms"] == 20);
  CHECK((*running)["report"]["rtt"]["verdict"] == "running");

  TestReport ok("ok");
  ok.r.setRttSamples(1);  // a sample taken since the rtt stage started
  registry.find(id)->onReport(ok.get(), 30);
  auto done = registry.poll(id, 40);
  REQUIRE(done.has_value());
  CHECK((*done)["state"] == "done");
  CHECK((*done)["report"]["overall"] == "ok");
  CHECK((*done)["report"]["elapsed_ms"] == 30);
  CHECK_FALSE(registry.poll(id, 50).has_value());  // delivered once
  CHECK_FALSE(registry.poll(99, 50).has_value());
}

TEST_CASE("ProbeRegistry: cancel ends the job at once; its poll says cancelled") {
  ProbeRegistry registry;
  const uint64_t id = *registry.admit(0);
  TestReport m;
  m.measuring();
  registry.find(id)->onReport(m.get(), 0);
  CHECK(registry.cancel(id, 100));
  CHECK_FALSE(registry.cancel(id + 1, 100));
  auto data = registry.poll(id, 200);
  REQUIRE(data.has_value());
  CHECK((*data)["state"] == "done");
  CHECK((*data)["report"]["overall"] == "cancelled");
  CHECK((*data)["report"]["elapsed_ms"] == 100);
  CHECK_FALSE(registry.cancel(id, 300));  // collected
}

TEST_CASE("ProbeRegistry: uncollected terminal jobs expire after PROBE_REAP_MS") {
  ProbeRegistry registry;
  const uint64_t done = *registry.admit(0);
  const uint64_t running = *registry.admit(0);
  TestReport ok("ok");
  registry.find(done)->onReport(ok.get(), 1000);
  registry.reap(1000 + PROBE_REAP_MS - 1);
  CHECK(registry.find(done) != nullptr);
  registry.reap(1000 + PROBE_REAP_MS);
  CHECK(registry.find(done) == nullptr);
  CHECK(registry.find(running) != nullptr);  // a running job never expires here
}

TEST_CASE("ProbeRegistry: at most MAX_RETAINED_PROBES terminal jobs wait, the oldest go") {
  ProbeRegistry registry;
  TestReport ok("ok");
  for (size_t i = 0; i < MAX_RETAINED_PROBES + 2; ++i) {
    const uint64_t id = *registry.admit(0);
    registry.find(id)->onReport(ok.get(), 0);
  }
  registry.reap(0);
  CHECK(registry.size() == MAX_RETAINED_PROBES);
  CHECK(registry.find(1) == nullptr);
  CHECK(registry.find(2) == nullptr);
  CHECK(registry.find(3) != nullptr);
}

}  // namespace
}  // namespace fips::router::control
