// SPDX-License-Identifier: MIT
// Config slices for the children (see slices.h).
#include "privsep/supervisor/slices.h"

#include <algorithm>
#include <cstdlib>
#include <string.h>

#include "privsep/config/config-diff.h"
#include "privsep/log.h"

namespace fips::privsep::supervisor {

namespace {
constexpr uint16_t UDP_BATCH = 32;  // datagrams per recvmmsg/sendmmsg
void fillPeers(capnp::List<schema::StaticPeer>::Builder out,
               const std::vector<config::PeerConfig>& peers) {
  for (unsigned i = 0; i < peers.size(); ++i) {
    const auto& peer = peers[i];
    auto slice = out[i];
    slice.setNpub(peer.npub);
    slice.setAlias(peer.alias.value_or(""));
    slice.setAutoConnect(peer.connectPolicy == config::ConnectPolicy::AUTO_CONNECT);
    auto addresses = slice.initAddresses(static_cast<unsigned>(peer.addresses.size()));
    for (unsigned k = 0; k < peer.addresses.size(); ++k) {
      addresses[k].setTransport(peer.addresses[k].transport);
      addresses[k].setAddr(peer.addresses[k].addr);
      addresses[k].setPriority(peer.addresses[k].priority);
    }
  }
}

void fillLinkSettings(schema::LinkSettings::Builder out, const config::NodeConfig& node) {
  out.setTickIntervalSecs(node.tickIntervalSecs);
  out.setHeartbeatIntervalSecs(node.heartbeatIntervalSecs);
  out.setLinkDeadTimeoutSecs(node.linkDeadTimeoutSecs);
  out.setHandshakeTimeoutSecs(node.rateLimit.handshakeTimeoutSecs);
  out.setHandshakeResendIntervalMs(node.rateLimit.handshakeResendIntervalMs);
  out.setHandshakeResendBackoff(node.rateLimit.handshakeResendBackoff);
  out.setHandshakeMaxResends(node.rateLimit.handshakeMaxResends);
  out.setHandshakeBurst(node.rateLimit.handshakeBurst);
  out.setHandshakeRate(node.rateLimit.handshakeRate);
  out.setMaxPeers(node.limits.maxPeers);
  out.setMaxLinks(node.limits.maxLinks);
  out.setMaxPendingInbound(node.limits.maxPendingInbound);
  out.setRetryBaseIntervalSecs(node.retry.baseIntervalSecs);
  out.setRetryMaxBackoffSecs(node.retry.maxBackoffSecs);
  out.setRekeyEnabled(node.rekey.enabled);
  out.setRekeyAfterSecs(node.rekey.afterSecs);
  out.setRekeyAfterMessages(node.rekey.afterMessages);
  switch (node.mmp.mode) {
    case config::MmpMode::FULL:
      out.setMmpMode(schema::MmpMode::FULL);
      break;
    case config::MmpMode::LIGHTWEIGHT:
      out.setMmpMode(schema::MmpMode::LIGHTWEIGHT);
      break;
    case config::MmpMode::MINIMAL:
      out.setMmpMode(schema::MmpMode::MINIMAL);
      break;
  }
  out.setMmpOwdWindowSize(static_cast<uint32_t>(node.mmp.owdWindowSize));
}

void fillMeshSettings(schema::MeshSettings::Builder out, const config::NodeConfig& node) {
  out.setTreeAnnounceMinIntervalMs(node.tree.announceMinIntervalMs);
  out.setTreeParentHysteresis(node.tree.parentHysteresis);
  out.setTreeHoldDownSecs(node.tree.holdDownSecs);
  out.setTreeReevalIntervalSecs(node.tree.reevalIntervalSecs);
  out.setTreeFlapThreshold(node.tree.flapThreshold);
  out.setTreeFlapWindowSecs(node.tree.flapWindowSecs);
  out.setTreeFlapDampeningSecs(node.tree.flapDampeningSecs);
  out.setBloomUpdateDebounceMs(node.bloom.updateDebounceMs);
  out.setBloomMaxInboundFpr(node.bloom.maxInboundFpr);
  out.setLookupTtl(node.lookup.ttl);
  const auto& timeouts = node.lookup.attemptTimeoutsSecs;
  auto list = out.initLookupAttemptTimeoutsSecs(static_cast<unsigned>(timeouts.size()));
  for (unsigned i = 0; i < timeouts.size(); ++i) list.set(i, timeouts[i]);
  out.setLookupRecentExpirySecs(node.lookup.recentExpirySecs);
  out.setLookupBackoffBaseSecs(node.lookup.backoffBaseSecs);
  out.setLookupBackoffMaxSecs(node.lookup.backoffMaxSecs);
  out.setLookupForwardMinIntervalSecs(node.lookup.forwardMinIntervalSecs);
  out.setCacheCoordSize(node.cache.coordSize);
  out.setCacheCoordTtlSecs(node.cache.coordTtlSecs);
  out.setCacheIdentitySize(node.cache.identitySize);
}

void fillSessionSettings(schema::SessionSettings::Builder out, const config::NodeConfig& node) {
  out.setDefaultTtl(node.session.defaultTtl);
  out.setPendingPacketsPerDest(static_cast<uint32_t>(node.session.pendingPacketsPerDest));
  out.setPendingMaxDestinations(static_cast<uint32_t>(node.session.pendingMaxDestinations));
  out.setIdleTimeoutSecs(node.session.idleTimeoutSecs);
  out.setCoordsWarmupPackets(node.session.coordsWarmupPackets);
  out.setCoordsResponseIntervalMs(node.session.coordsResponseIntervalMs);
  out.setSetupBurst(node.rateLimit.sessionSetupBurst);
  out.setSetupRate(node.rateLimit.sessionSetupRate);
}

}  // namespace

spdlog::level::level_enum configuredLogLevel(const config::Config& cfg) {
  if (!cfg.node.logLevel) return spdlog::level::info;
  return parseLogLevel(*cfg.node.logLevel).value_or(spdlog::level::info);
}

schema::LogLevel toSchemaLevel(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
      return schema::LogLevel::TRACE;
    case spdlog::level::debug:
      return schema::LogLevel::DEBUG;
    case spdlog::level::info:
      return schema::LogLevel::INFO;
    case spdlog::level::warn:
      return schema::LogLevel::WARN;
    default:
      return schema::LogLevel::ERROR;
  }
}

void fillRouterSlice(schema::RouterConfig::Builder out, const config::Config& cfg,
                     const NodeIdentity& identity, const UserIds& user,
                     const std::string& controlSocket, const std::string& controlUnavailable) {
  auto secret = identity.secret.bytes();
  out.setNsec(kj::arrayPtr(secret.data(), secret.size()));
  out.setTunEnabled(cfg.tun.enabled);
  out.setTunName(cfg.tun.name);
  out.setTunMtu(cfg.tun.mtu);
  // FSP path MTU and the IPv6 effective MTU start from the smallest
  // transport MTU (spec 04 §7) of the udp and tcp workers.
  uint16_t transportMtu = 0;
  for (const auto& [name, udp] : cfg.transports.udp) {
    if (transportMtu == 0 || udp.mtu < transportMtu) transportMtu = udp.mtu;
  }
  for (const auto& [name, tcp] : cfg.transports.tcp) {
    if (transportMtu == 0 || tcp.mtu < transportMtu) transportMtu = tcp.mtu;
  }
  out.setTransportMtu(transportMtu);
  out.setUser(user.name);
  fillPeers(out.initPeers(static_cast<unsigned>(cfg.peers.size())), cfg.peers);
  fillLinkSettings(out.initLink(), cfg.node);
  fillMeshSettings(out.initMesh(), cfg.node);
  fillSessionSettings(out.initSession(), cfg.node);
  auto dns = out.initDns();
  dns.setEnabled(cfg.dns.enabled);
  dns.setBindAddr(cfg.dns.bindAddr);
  dns.setPort(cfg.dns.port);
  dns.setTtl(cfg.dns.ttl);
  const char* hosts = std::getenv("FIPS_HOSTS_FILE");
  dns.setHostsPath(hosts != nullptr && *hosts != '\0' ? hosts : "/etc/fips/hosts");
  out.setControlSocket(controlSocket);
  out.setControlUnavailable(controlUnavailable);
  out.setControlJsonCompat(cfg.node.control.jsonCompat);
  out.setLeafOnly(cfg.node.leafOnly);
}

void fillTunSlice(schema::TunConfig::Builder out, const config::Config& cfg,
                  const NodeIdentity& identity, const UserIds& user) {
  out.setEnabled(cfg.tun.enabled);
  out.setName(cfg.tun.name);
  out.setMtu(cfg.tun.mtu);
  out.setAddress(kj::arrayPtr(identity.ipv6.data(), identity.ipv6.size()));
  out.setUser(user.name);
  if (cfg.dns.enabled && cfg.dns.port > 0 && cfg.dns.port < 1024) {
    out.setDnsBindAddr(cfg.dns.bindAddr);
    out.setDnsPort(cfg.dns.port);
  }
}

void fillUdpSlice(schema::TransportConfig::Builder out, const config::UdpConfig& udp,
                  const std::string& instance, const UserIds& user) {
  out.setUser(user.name);
  out.setType("udp");
  out.setInstance(instance);
  out.setBindAddr(udp.bindAddr);
  out.setRecvBufSize(static_cast<uint32_t>(udp.recvBufSize));
  out.setSendBufSize(static_cast<uint32_t>(udp.sendBufSize));
  out.setMtu(udp.mtu);
  out.setBatchSize(UDP_BATCH);
}

void fillTcpSlice(schema::TransportConfig::Builder out, const config::TcpConfig& tcp,
                  const std::string& instance, const UserIds& user) {
  auto clamp32 = [](uint64_t v) {
    return static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX));
  };
  out.setUser(user.name);
  out.setType("tcp");
  out.setInstance(instance);
  out.setBindAddr(tcp.bindAddr.value_or(""));
  out.setRecvBufSize(clamp32(tcp.recvBufSize));
  out.setSendBufSize(clamp32(tcp.sendBufSize));
  out.setMtu(tcp.mtu);
  out.setConnectTimeoutMs(clamp32(tcp.connectTimeoutMs));
  out.setNodelay(tcp.nodelay);
  out.setKeepaliveSecs(clamp32(tcp.keepaliveSecs));
  out.setMaxInboundConnections(clamp32(tcp.maxInboundConnections));
}

std::vector<std::string> restartOnlyChanges(const config::Config& before,
                                            const config::Config& after) {
  std::vector<std::string> out = config::changedKeys(before, after);
  std::erase_if(out,
                [](const std::string& key) { return key == "node.log_level" || key == "peers"; });
  return out;
}

void wipeMessage(capnp::MallocMessageBuilder& message) {
  for (auto segment : message.getSegmentsForOutput()) {
    ::explicit_bzero(const_cast<capnp::word*>(segment.begin()), segment.asBytes().size());
  }
}

}  // namespace fips::privsep::supervisor
