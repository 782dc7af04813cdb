// SPDX-License-Identifier: MIT
// The router's config slice as mesh core settings: each slice field lands in
// its MeshConfig field, seconds become milliseconds where the core counts in
// ms, and a slice without session settings keeps the session defaults.
// Test code; the slices are built here.
#include "router/daemon/config-from-slice.h"

#include <capnp/message.h>

#include <doctest/doctest.h>

namespace fips::router {
namespace {

TEST_CASE("meshConfig: link, tree, bloom, lookup, cache and session settings") {
  capnp::MallocMessageBuilder msg;
  auto slice = msg.initRoot<schema::RouterConfig>();
  auto link = slice.initLink();
  link.setHeartbeatIntervalSecs(3);
  link.setLinkDeadTimeoutSecs(11);
  link.setHandshakeResendBackoff(1.5);
  link.setMaxPeers(7);
  link.setRekeyEnabled(false);
  link.setRekeyAfterSecs(600);
  link.setRekeyAfterMessages(1000);
  auto mesh = slice.initMesh();
  mesh.setTreeParentHysteresis(0.25);
  mesh.setTreeFlapThreshold(9);
  mesh.setBloomUpdateDebounceMs(750);
  mesh.setLookupTtl(12);
  auto timeouts = mesh.initLookupAttemptTimeoutsSecs(3);
  timeouts.set(0, 1);
  timeouts.set(1, 2);
  timeouts.set(2, 4);
  mesh.setCacheCoordSize(123);
  mesh.setCacheCoordTtlSecs(45);
  mesh.setCacheIdentitySize(67);
  auto session = slice.initSession();
  session.setDefaultTtl(32);
  session.setIdleTimeoutSecs(20);
  session.setSetupBurst(8);
  session.setSetupRate(2.5);

  const mesh::MeshConfig c = meshConfig(slice);
  CHECK(c.link.heartbeatIntervalSecs == 3);
  CHECK(c.link.linkDeadTimeoutSecs == 11);
  CHECK(c.link.handshakeResendBackoff == 1.5);
  CHECK(c.link.maxPeers == 7);
  CHECK(c.tree.parentHysteresis == 0.25);
  CHECK(c.tree.flapThreshold == 9);
  CHECK(c.bloom.updateDebounceMs == 750);
  CHECK(c.lookup.ttl == 12);
  CHECK(c.lookup.attemptTimeoutsSecs == std::vector<uint64_t>{1, 2, 4});
  CHECK(c.coordCache.capacity == 123);
  CHECK(c.coordCache.ttlMs == 45'000);
  CHECK(c.identityCache.capacity == 67);
  CHECK(c.session.defaultTtl == 32);
  CHECK(c.session.idleTimeoutMs == 20'000);
  CHECK(c.session.setupRate.strangerBurst == 8);
  CHECK(c.session.setupRate.establishedRate == 2.5);
  // Sessions rekey by node.rekey.*, which the slice carries with the link settings.
  CHECK_FALSE(c.session.rekey.rekey.enabled);
  CHECK(c.session.rekey.rekey.afterSecs == 600);
  CHECK(c.session.rekey.rekey.afterMessages == 1000);
}

TEST_CASE("meshConfig: node.mmp mode and OWD window reach the link engine (bounded)") {
  capnp::MallocMessageBuilder msg;
  auto slice = msg.initRoot<schema::RouterConfig>();
  auto settings = slice.initLink();
  slice.initMesh();
  CHECK((meshConfig(slice).link.mmpMode == link::MmpMode::FULL));  // the default
  settings.setMmpMode(schema::MmpMode::LIGHTWEIGHT);
  settings.setMmpOwdWindowSize(48);
  CHECK((meshConfig(slice).link.mmpMode == link::MmpMode::LIGHTWEIGHT));
  CHECK(meshConfig(slice).link.mmpOwdWindow == 48);
  settings.setMmpMode(schema::MmpMode::MINIMAL);
  settings.setMmpOwdWindowSize(1'000'000);
  CHECK((meshConfig(slice).link.mmpMode == link::MmpMode::MINIMAL));
  CHECK(meshConfig(slice).link.mmpOwdWindow == 1024);
}

TEST_CASE("meshConfig: no session settings in the slice keeps the session defaults") {
  capnp::MallocMessageBuilder msg;
  auto slice = msg.initRoot<schema::RouterConfig>();
  slice.initLink().setRekeyAfterSecs(600);
  slice.initMesh();
  const mesh::MeshConfig c = meshConfig(slice);
  const fsp::SessionConfig defaults;
  CHECK(c.session.defaultTtl == defaults.defaultTtl);
  CHECK(c.session.idleTimeoutMs == defaults.idleTimeoutMs);
  CHECK(c.session.rekey.rekey.afterSecs == defaults.rekey.rekey.afterSecs);
}

}  // namespace
}  // namespace fips::router
