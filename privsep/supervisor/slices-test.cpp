// SPDX-License-Identifier: MIT
// The router's built-in defaults (router/*/…-config.h, which the simulators
// and unit tests use) against the config's (privsep/config, the one place a
// default is written): the default Config, through the router's slice and
// meshConfig(), must give the same settings as a default MeshConfig, so the
// two can never disagree unnoticed. Test code.
#include "privsep/supervisor/slices.h"

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "router/daemon/config-from-slice.h"

namespace fips::privsep::supervisor {
namespace {

router::mesh::MeshConfig fromDefaultConfig() {
  capnp::MallocMessageBuilder msg;
  auto slice = msg.initRoot<schema::RouterConfig>();
  NodeIdentity identity;
  fillRouterSlice(slice, config::Config{}, identity, UserIds{"fips"}, "", "");
  return router::meshConfig(slice.asReader());
}

TEST_CASE("router defaults: the link engine's equal node.*'s") {
  const router::link::LinkConfig got = fromDefaultConfig().link;
  const router::link::LinkConfig builtIn;
  CHECK(got.heartbeatIntervalSecs == builtIn.heartbeatIntervalSecs);
  CHECK(got.linkDeadTimeoutSecs == builtIn.linkDeadTimeoutSecs);
  CHECK(got.handshakeTimeoutSecs == builtIn.handshakeTimeoutSecs);
  CHECK(got.handshakeResendIntervalMs == builtIn.handshakeResendIntervalMs);
  CHECK(got.handshakeResendBackoff == builtIn.handshakeResendBackoff);
  CHECK(got.handshakeMaxResends == builtIn.handshakeMaxResends);
  CHECK(got.handshakeBurst == builtIn.handshakeBurst);
  CHECK(got.handshakeRate == builtIn.handshakeRate);
  CHECK(got.maxPeers == builtIn.maxPeers);
  CHECK(got.maxLinks == builtIn.maxLinks);
  CHECK(got.maxPendingInbound == builtIn.maxPendingInbound);
  CHECK(got.retryBaseIntervalSecs == builtIn.retryBaseIntervalSecs);
  CHECK(got.retryMaxBackoffSecs == builtIn.retryMaxBackoffSecs);
  CHECK(got.rekeyEnabled == builtIn.rekeyEnabled);
  CHECK(got.rekeyAfterSecs == builtIn.rekeyAfterSecs);
  CHECK(got.rekeyAfterMessages == builtIn.rekeyAfterMessages);
  CHECK((got.mmpMode == builtIn.mmpMode));
  CHECK(got.mmpOwdWindow == builtIn.mmpOwdWindow);
}

TEST_CASE("router defaults: tree, bloom, lookup and caches equal node.*'s") {
  const router::mesh::MeshConfig got = fromDefaultConfig();
  const router::mesh::MeshConfig builtIn;
  CHECK(got.tree.announceMinIntervalMs == builtIn.tree.announceMinIntervalMs);
  CHECK(got.tree.parentHysteresis == builtIn.tree.parentHysteresis);
  CHECK(got.tree.holdDownSecs == builtIn.tree.holdDownSecs);
  CHECK(got.tree.reevalIntervalSecs == builtIn.tree.reevalIntervalSecs);
  CHECK(got.tree.flapThreshold == builtIn.tree.flapThreshold);
  CHECK(got.tree.flapWindowSecs == builtIn.tree.flapWindowSecs);
  CHECK(got.tree.flapDampeningSecs == builtIn.tree.flapDampeningSecs);
  CHECK(got.bloom.updateDebounceMs == builtIn.bloom.updateDebounceMs);
  CHECK(got.bloom.maxInboundFpr == builtIn.bloom.maxInboundFpr);
  CHECK(got.lookup.ttl == builtIn.lookup.ttl);
  CHECK(got.lookup.attemptTimeoutsSecs == builtIn.lookup.attemptTimeoutsSecs);
  CHECK(got.lookup.recentExpirySecs == builtIn.lookup.recentExpirySecs);
  CHECK(got.lookup.forwardMinIntervalSecs == builtIn.lookup.forwardMinIntervalSecs);
  CHECK(got.lookup.backoffBaseSecs == builtIn.lookup.backoffBaseSecs);
  CHECK(got.lookup.backoffMaxSecs == builtIn.lookup.backoffMaxSecs);
  CHECK(got.coordCache.capacity == builtIn.coordCache.capacity);
  CHECK(got.coordCache.ttlMs == builtIn.coordCache.ttlMs);
  CHECK(got.identityCache.capacity == builtIn.identityCache.capacity);
}

TEST_CASE("router defaults: sessions equal node.session.*'s and node.rekey.*'s") {
  const router::fsp::SessionConfig got = fromDefaultConfig().session;
  const router::fsp::SessionConfig builtIn;
  CHECK(got.defaultTtl == builtIn.defaultTtl);
  CHECK(got.pendingPacketsPerDest == builtIn.pendingPacketsPerDest);
  CHECK(got.pendingMaxDestinations == builtIn.pendingMaxDestinations);
  CHECK(got.idleTimeoutMs == builtIn.idleTimeoutMs);
  CHECK(got.coordsWarmupPackets == builtIn.coordsWarmupPackets);
  CHECK(got.coordsResponseIntervalMs == builtIn.coordsResponseIntervalMs);
  CHECK(got.setupRate.strangerBurst == builtIn.setupRate.strangerBurst);
  CHECK(got.setupRate.strangerRate == builtIn.setupRate.strangerRate);
  CHECK(got.setupRate.establishedBurst == builtIn.setupRate.establishedBurst);
  CHECK(got.setupRate.establishedRate == builtIn.setupRate.establishedRate);
  CHECK(got.rekey.rekey.enabled == builtIn.rekey.rekey.enabled);
  CHECK(got.rekey.rekey.afterSecs == builtIn.rekey.rekey.afterSecs);
  CHECK(got.rekey.rekey.afterMessages == builtIn.rekey.rekey.afterMessages);
}

}  // namespace
}  // namespace fips::privsep::supervisor
