// SPDX-License-Identifier: MIT
// The router's config slice as the mesh core's settings (see
// config-from-slice.h). Runs in fips-router; the slice comes from the
// supervisor, which validated the operator's fips.yaml.
#include "router/daemon/config-from-slice.h"

#include <algorithm>

namespace fips::router {

namespace {

constexpr uint32_t MAX_OWD_WINDOW = 1024;

link::LinkConfig linkConfig(schema::LinkSettings::Reader s) {
  link::LinkConfig c;
  c.heartbeatIntervalSecs = s.getHeartbeatIntervalSecs();
  c.linkDeadTimeoutSecs = s.getLinkDeadTimeoutSecs();
  c.handshakeTimeoutSecs = s.getHandshakeTimeoutSecs();
  c.handshakeResendIntervalMs = s.getHandshakeResendIntervalMs();
  c.handshakeResendBackoff = s.getHandshakeResendBackoff();
  c.handshakeMaxResends = s.getHandshakeMaxResends();
  c.handshakeBurst = s.getHandshakeBurst();
  c.handshakeRate = s.getHandshakeRate();
  c.maxPeers = static_cast<uint32_t>(s.getMaxPeers());
  c.maxLinks = static_cast<uint32_t>(s.getMaxLinks());
  c.maxPendingInbound = static_cast<uint32_t>(s.getMaxPendingInbound());
  c.retryBaseIntervalSecs = s.getRetryBaseIntervalSecs();
  c.retryMaxBackoffSecs = s.getRetryMaxBackoffSecs();
  c.rekeyEnabled = s.getRekeyEnabled();
  c.rekeyAfterSecs = s.getRekeyAfterSecs();
  c.rekeyAfterMessages = s.getRekeyAfterMessages();
  switch (s.getMmpMode()) {
    case schema::MmpMode::LIGHTWEIGHT:
      c.mmpMode = link::MmpMode::LIGHTWEIGHT;
      break;
    case schema::MmpMode::MINIMAL:
      c.mmpMode = link::MmpMode::MINIMAL;
      break;
    case schema::MmpMode::FULL:
      c.mmpMode = link::MmpMode::FULL;
      break;
  }
  // The OWD ring is walked on every report: bounded whatever the config says.
  c.mmpOwdWindow = std::min<uint32_t>(s.getMmpOwdWindowSize(), MAX_OWD_WINDOW);
  return c;
}

stp::TreeConfig treeConfig(schema::MeshSettings::Reader s) {
  stp::TreeConfig c;
  c.announceMinIntervalMs = s.getTreeAnnounceMinIntervalMs();
  c.parentHysteresis = s.getTreeParentHysteresis();
  c.holdDownSecs = s.getTreeHoldDownSecs();
  c.reevalIntervalSecs = s.getTreeReevalIntervalSecs();
  c.flapThreshold = s.getTreeFlapThreshold();
  c.flapWindowSecs = s.getTreeFlapWindowSecs();
  c.flapDampeningSecs = s.getTreeFlapDampeningSecs();
  return c;
}

lookup::LookupConfig lookupConfig(schema::MeshSettings::Reader s) {
  lookup::LookupConfig c;
  c.ttl = s.getLookupTtl();
  c.attemptTimeoutsSecs.clear();
  for (uint64_t secs : s.getLookupAttemptTimeoutsSecs()) c.attemptTimeoutsSecs.push_back(secs);
  c.recentExpirySecs = s.getLookupRecentExpirySecs();
  c.forwardMinIntervalSecs = s.getLookupForwardMinIntervalSecs();
  c.backoffBaseSecs = s.getLookupBackoffBaseSecs();
  c.backoffMaxSecs = s.getLookupBackoffMaxSecs();
  return c;
}

// node.session.* and node.rekey.* for FSP sessions (spec 04 §8, spec 01 §8.2).
fsp::SessionConfig sessionConfig(schema::SessionSettings::Reader s, const link::LinkConfig& link) {
  fsp::SessionConfig c;
  c.defaultTtl = s.getDefaultTtl();
  c.pendingPacketsPerDest = s.getPendingPacketsPerDest();
  c.pendingMaxDestinations = s.getPendingMaxDestinations();
  c.idleTimeoutMs = s.getIdleTimeoutSecs() * 1000;
  c.coordsWarmupPackets = s.getCoordsWarmupPackets();
  c.coordsResponseIntervalMs = s.getCoordsResponseIntervalMs();
  c.setupRate = {s.getSetupBurst(), s.getSetupRate(), s.getSetupBurst(), s.getSetupRate()};
  c.rekey.rekey = {link.rekeyEnabled, link.rekeyAfterSecs, link.rekeyAfterMessages};
  return c;
}

}  // namespace

mesh::MeshConfig meshConfig(schema::RouterConfig::Reader slice) {
  const auto mesh = slice.getMesh();
  mesh::MeshConfig c;
  c.link = linkConfig(slice.getLink());
  c.tree = treeConfig(mesh);
  c.bloom.updateDebounceMs = mesh.getBloomUpdateDebounceMs();
  c.bloom.maxInboundFpr = mesh.getBloomMaxInboundFpr();
  c.lookup = lookupConfig(mesh);
  c.coordCache.capacity = mesh.getCacheCoordSize();
  c.coordCache.ttlMs = mesh.getCacheCoordTtlSecs() * 1000;
  c.identityCache.capacity = mesh.getCacheIdentitySize();
  c.pmtuProbing = true;  // RFC 8899 on every link (docs/design/path-mtu.md)
  if (slice.hasSession()) c.session = sessionConfig(slice.getSession(), c.link);
  return c;
}

}  // namespace fips::router
