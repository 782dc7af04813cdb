// SPDX-License-Identifier: MIT
// toYaml: the effective Config as fips.yaml text, every key in a fixed order.
// Runs in the fips supervisor and fipsctl on validated configs; secrets are
// left out and replaced by a comment.
#include "privsep/config/config-yaml-writer.h"

#include <cmath>
#include <string_view>

#include <fmt/format.h>

namespace fips::privsep::config {

namespace {

constexpr int INDENT = 2;

std::string str(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += fmt::format("\\x{:02x}", u);
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string optStr(const std::optional<std::string>& s) {
  return s ? str(*s) : "~";
}

std::string boolean(bool b) {
  return b ? "true" : "false";
}

template <typename T>
std::string num(T v) {
  return fmt::format("{}", v);
}

template <typename T>
std::string num(const std::optional<T>& v) {
  return v ? num(*v) : "~";
}

std::string hex(std::uint16_t v) {
  return fmt::format("0x{:04x}", v);
}

std::string real(double v) {
  if (std::isnan(v)) return ".nan";
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  std::string out = fmt::format("{}", v);
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

std::string real(const std::optional<double>& v) {
  return v ? real(*v) : "~";
}

std::string numbers(const std::vector<std::uint64_t>& values) {
  return fmt::format("[{}]", fmt::join(values, ", "));
}

// Instance names print bare when they are plain words, quoted otherwise.
std::string key(std::string_view name) {
  const bool plain = !name.empty() &&
                     name.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-") == std::string_view::npos &&
                     name.front() != '-';
  return plain ? std::string(name) : str(name);
}

std::string_view policyName(NostrPolicy p) {
  switch (p) {
    case NostrPolicy::DISABLED:
      return "disabled";
    case NostrPolicy::CONFIGURED_ONLY:
      return "configured_only";
    case NostrPolicy::OPEN:
      return "open";
  }
  return "configured_only";
}

std::string_view mmpName(MmpMode m) {
  switch (m) {
    case MmpMode::FULL:
      return "full";
    case MmpMode::LIGHTWEIGHT:
      return "lightweight";
    case MmpMode::MINIMAL:
      return "minimal";
  }
  return "full";
}

std::string_view torModeName(TorMode m) {
  switch (m) {
    case TorMode::SOCKS5:
      return "socks5";
    case TorMode::CONTROL_PORT:
      return "control_port";
    case TorMode::DIRECTORY:
      return "directory";
  }
  return "socks5";
}

std::string_view connectPolicyName(ConnectPolicy p) {
  switch (p) {
    case ConnectPolicy::AUTO_CONNECT:
      return "auto_connect";
    case ConnectPolicy::ON_DEMAND:
      return "on_demand";
    case ConnectPolicy::MANUAL:
      return "manual";
  }
  return "auto_connect";
}

// Indented block YAML, one key per line.
class Writer {
 public:
  void line(std::string_view text) {
    out_.append(static_cast<std::size_t>(depth_ * INDENT), ' ');
    out_.append(text);
    out_ += '\n';
  }
  void comment(std::string_view text) { line(fmt::format("# {}", text)); }
  void kv(std::string_view name, std::string_view value) {
    line(fmt::format("{}: {}", name, value));
  }
  template <typename F>
  void map(std::string_view name, F body) {
    line(fmt::format("{}:", name));
    ++depth_;
    body();
    --depth_;
  }
  void strings(std::string_view name, const std::vector<std::string>& values) {
    if (values.empty()) return kv(name, "[]");
    line(fmt::format("{}:", name));
    for (const std::string& v : values)
      line(fmt::format("{}- {}", std::string(INDENT, ' '), str(v)));
  }
  // A list of maps: each body is written one level in, its first indent turned into "- ".
  template <typename T, typename F>
  void list(std::string_view name, const std::vector<T>& items, F body) {
    if (items.empty()) return kv(name, "[]");
    line(fmt::format("{}:", name));
    ++depth_;
    for (const T& item : items) {
      const std::size_t start = out_.size() + static_cast<std::size_t>(depth_ * INDENT);
      ++depth_;
      body(item);
      --depth_;
      out_.replace(start, INDENT, "- ");
    }
    --depth_;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  int depth_ = 0;
};

void writeNostr(Writer& w, const NostrRendezvousConfig& n) {
  w.kv("enabled", boolean(n.enabled));
  w.kv("advertise", boolean(n.advertise));
  w.strings("advert_relays", n.advertRelays);
  w.strings("dm_relays", n.dmRelays);
  w.strings("stun_servers", n.stunServers);
  w.kv("share_local_candidates", boolean(n.shareLocalCandidates));
  w.kv("app", str(n.app));
  w.kv("signal_ttl_secs", num(n.signalTtlSecs));
  w.kv("policy", policyName(n.policy));
  w.kv("open_discovery_max_pending", num(n.openDiscoveryMaxPending));
  w.kv("max_concurrent_incoming_offers", num(n.maxConcurrentIncomingOffers));
  w.kv("max_concurrent_offers_per_npub", num(n.maxConcurrentOffersPerNpub));
  w.kv("advert_cache_max_entries", num(n.advertCacheMaxEntries));
  w.kv("seen_sessions_max_entries", num(n.seenSessionsMaxEntries));
  w.kv("attempt_timeout_secs", num(n.attemptTimeoutSecs));
  w.kv("replay_window_secs", num(n.replayWindowSecs));
  w.kv("punch_start_delay_ms", num(n.punchStartDelayMs));
  w.kv("punch_interval_ms", num(n.punchIntervalMs));
  w.kv("punch_duration_ms", num(n.punchDurationMs));
  w.kv("advert_ttl_secs", num(n.advertTtlSecs));
  w.kv("advert_refresh_secs", num(n.advertRefreshSecs));
  w.kv("startup_sweep_delay_secs", num(n.startupSweepDelaySecs));
  w.kv("startup_sweep_max_age_secs", num(n.startupSweepMaxAgeSecs));
  w.kv("failure_streak_threshold", num(n.failureStreakThreshold));
  w.kv("extended_cooldown_secs", num(n.extendedCooldownSecs));
  w.kv("warn_log_interval_secs", num(n.warnLogIntervalSecs));
  w.kv("failure_state_max_entries", num(n.failureStateMaxEntries));
  w.kv("protocol_mismatch_cooldown_secs", num(n.protocolMismatchCooldownSecs));
}

void writeMmp(Writer& w, std::string_view name, const MmpConfig& m) {
  w.map(name, [&] {
    w.kv("mode", mmpName(m.mode));
    w.kv("log_interval_secs", num(m.logIntervalSecs));
    w.kv("owd_window_size", num(m.owdWindowSize));
  });
}

void writeNodeLimitTables(Writer& w, const NodeConfig& n) {
  w.map("limits", [&] {
    w.kv("max_connections", num(n.limits.maxConnections));
    w.kv("max_peers", num(n.limits.maxPeers));
    w.kv("max_links", num(n.limits.maxLinks));
    w.kv("max_pending_inbound", num(n.limits.maxPendingInbound));
  });
  const RateLimitConfig& rl = n.rateLimit;
  w.map("rate_limit", [&] {
    w.kv("handshake_burst", num(rl.handshakeBurst));
    w.kv("handshake_rate", real(rl.handshakeRate));
    w.kv("handshake_timeout_secs", num(rl.handshakeTimeoutSecs));
    w.kv("handshake_resend_interval_ms", num(rl.handshakeResendIntervalMs));
    w.kv("handshake_resend_backoff", real(rl.handshakeResendBackoff));
    w.kv("handshake_max_resends", num(rl.handshakeMaxResends));
    w.kv("established_handshake_burst", num(rl.establishedHandshakeBurst));
    w.kv("established_handshake_rate", real(rl.establishedHandshakeRate));
    w.kv("session_setup_burst", num(rl.sessionSetupBurst));
    w.kv("session_setup_rate", real(rl.sessionSetupRate));
  });
  w.map("retry", [&] {
    w.kv("max_retries", num(n.retry.maxRetries));
    w.kv("base_interval_secs", num(n.retry.baseIntervalSecs));
    w.kv("max_backoff_secs", num(n.retry.maxBackoffSecs));
  });
  w.map("cache", [&] {
    w.kv("coord_size", num(n.cache.coordSize));
    w.kv("coord_ttl_secs", num(n.cache.coordTtlSecs));
    w.kv("identity_size", num(n.cache.identitySize));
  });
  w.map("lookup", [&] {
    w.kv("ttl", num(n.lookup.ttl));
    w.kv("attempt_timeouts_secs", numbers(n.lookup.attemptTimeoutsSecs));
    w.kv("recent_expiry_secs", num(n.lookup.recentExpirySecs));
    w.kv("backoff_base_secs", num(n.lookup.backoffBaseSecs));
    w.kv("backoff_max_secs", num(n.lookup.backoffMaxSecs));
    w.kv("forward_min_interval_secs", num(n.lookup.forwardMinIntervalSecs));
  });
  w.map("rendezvous", [&] {
    w.map("nostr", [&] { writeNostr(w, n.rendezvous.nostr); });
    w.map("lan", [&] {
      w.kv("enabled", boolean(n.rendezvous.lan.enabled));
      w.kv("service_type", str(n.rendezvous.lan.serviceType));
      w.kv("scope", optStr(n.rendezvous.lan.scope));
    });
  });
}

void writeNodeProtocolTables(Writer& w, const NodeConfig& n) {
  w.map("tree", [&] {
    w.kv("announce_min_interval_ms", num(n.tree.announceMinIntervalMs));
    w.kv("parent_hysteresis", real(n.tree.parentHysteresis));
    w.kv("hold_down_secs", num(n.tree.holdDownSecs));
    w.kv("reeval_interval_secs", num(n.tree.reevalIntervalSecs));
    w.kv("flap_threshold", num(n.tree.flapThreshold));
    w.kv("flap_window_secs", num(n.tree.flapWindowSecs));
    w.kv("flap_dampening_secs", num(n.tree.flapDampeningSecs));
  });
  w.map("bloom", [&] {
    w.kv("update_debounce_ms", num(n.bloom.updateDebounceMs));
    w.kv("max_inbound_fpr", real(n.bloom.maxInboundFpr));
  });
  w.map("session", [&] {
    w.kv("default_ttl", num(n.session.defaultTtl));
    w.kv("pending_packets_per_dest", num(n.session.pendingPacketsPerDest));
    w.kv("pending_max_destinations", num(n.session.pendingMaxDestinations));
    w.kv("idle_timeout_secs", num(n.session.idleTimeoutSecs));
    w.kv("coords_warmup_packets", num(n.session.coordsWarmupPackets));
    w.kv("coords_response_interval_ms", num(n.session.coordsResponseIntervalMs));
  });
}

void writeNodeServiceTables(Writer& w, const NodeConfig& n) {
  w.map("buffers", [&] {
    w.kv("packet_channel", num(n.buffers.packetChannel));
    w.kv("tun_channel", num(n.buffers.tunChannel));
    w.kv("dns_channel", num(n.buffers.dnsChannel));
  });
  w.map("control", [&] {
    w.kv("enabled", boolean(n.control.enabled));
    w.kv("socket_path", optStr(n.control.socketPath));
    w.kv("json_compat", boolean(n.control.jsonCompat));
  });
  w.map("native_api", [&] {
    w.kv("enabled", boolean(n.nativeApi.enabled));
    w.kv("socket_path", optStr(n.nativeApi.socketPath));
    w.kv("pending_per_flow", num(n.nativeApi.pendingPerFlow));
    w.kv("backlog", num(n.nativeApi.backlog));
    w.kv("max_flows", num(n.nativeApi.maxFlows));
    w.kv("debug_commands", boolean(n.nativeApi.debugCommands));
  });
}

// Link and session metrics, congestion and rekey.
void writeNodeLinkTables(Writer& w, const NodeConfig& n) {
  writeMmp(w, "mmp", n.mmp);
  writeMmp(w, "session_mmp", n.sessionMmp);
  w.map("ecn", [&] {
    w.kv("enabled", boolean(n.ecn.enabled));
    w.kv("loss_threshold", real(n.ecn.lossThreshold));
    w.kv("etx_threshold", real(n.ecn.etxThreshold));
  });
  w.map("rekey", [&] {
    w.kv("enabled", boolean(n.rekey.enabled));
    w.kv("after_secs", num(n.rekey.afterSecs));
    w.kv("after_messages", num(n.rekey.afterMessages));
  });
}

void writeNode(Writer& w, const NodeConfig& n) {
  w.map("node", [&] {
    w.map("identity", [&] {
      if (n.identity.nsec) w.comment("node.identity.nsec is set (not shown)");
      w.kv("persistent", boolean(n.identity.persistent));
    });
    w.kv("leaf_only", boolean(n.leafOnly));
    w.kv("tick_interval_secs", num(n.tickIntervalSecs));
    w.kv("base_rtt_ms", num(n.baseRttMs));
    w.kv("heartbeat_interval_secs", num(n.heartbeatIntervalSecs));
    w.kv("link_dead_timeout_secs", num(n.linkDeadTimeoutSecs));
    w.kv("drain_timeout_secs", num(n.drainTimeoutSecs));
    w.kv("log_level", optStr(n.logLevel));
    w.comment("fips-cpp extension: the user fips-router and the transport workers run as");
    w.kv("user", str(n.user));
    writeNodeLimitTables(w, n);
    writeNodeProtocolTables(w, n);
    writeNodeServiceTables(w, n);
    writeNodeLinkTables(w, n);
  });
}

void writeUdp(Writer& w, const UdpConfig& u) {
  w.kv("bind_addr", str(u.bindAddr));
  w.kv("mtu", num(u.mtu));
  w.kv("recv_buf_size", num(u.recvBufSize));
  w.kv("send_buf_size", num(u.sendBufSize));
  w.kv("advertise_on_nostr", boolean(u.advertiseOnNostr));
  w.kv("public", boolean(u.isPublic));
  w.kv("external_addr", optStr(u.externalAddr));
  w.kv("outbound_only", boolean(u.outboundOnly));
  w.kv("accept_connections", boolean(u.acceptConnections));
}

void writeTcp(Writer& w, const TcpConfig& t) {
  w.kv("bind_addr", optStr(t.bindAddr));
  w.kv("mtu", num(t.mtu));
  w.kv("connect_timeout_ms", num(t.connectTimeoutMs));
  w.kv("nodelay", boolean(t.nodelay));
  w.kv("keepalive_secs", num(t.keepaliveSecs));
  w.kv("recv_buf_size", num(t.recvBufSize));
  w.kv("send_buf_size", num(t.sendBufSize));
  w.kv("max_inbound_connections", num(t.maxInboundConnections));
  w.kv("advertise_on_nostr", boolean(t.advertiseOnNostr));
  w.kv("external_addr", optStr(t.externalAddr));
}

void writeEthernet(Writer& w, const EthernetConfig& e) {
  w.kv("interface", str(e.interface));
  w.kv("ethertype", hex(e.ethertype));
  w.kv("mtu", num(e.mtu));
  w.kv("recv_buf_size", num(e.recvBufSize));
  w.kv("send_buf_size", num(e.sendBufSize));
  w.kv("listen", boolean(e.listen));
  w.kv("announce", boolean(e.announce));
  w.kv("auto_connect", boolean(e.autoConnect));
  w.kv("accept_connections", boolean(e.acceptConnections));
  w.kv("beacon_interval_secs", num(e.beaconIntervalSecs));
}

void writeTor(Writer& w, const TorConfig& t) {
  w.kv("mode", torModeName(t.mode));
  w.kv("socks5_addr", str(t.socks5Addr));
  w.kv("connect_timeout_ms", num(t.connectTimeoutMs));
  w.kv("mtu", num(t.mtu));
  w.kv("control_addr", str(t.controlAddr));
  if (t.controlAuth.starts_with("password:")) {
    w.comment("control_auth is a password (not shown)");
  } else {
    w.kv("control_auth", str(t.controlAuth));
  }
  w.kv("cookie_path", str(t.cookiePath));
  w.kv("max_inbound_connections", num(t.maxInboundConnections));
  w.map("directory_service", [&] {
    w.kv("hostname_file", str(t.directoryService.hostnameFile));
    w.kv("bind_addr", str(t.directoryService.bindAddr));
  });
  w.kv("advertise_on_nostr", boolean(t.advertiseOnNostr));
  w.kv("advertised_port", num(t.advertisedPort));
}

void writeNym(Writer& w, const NymConfig& n) {
  w.kv("socks5_addr", str(n.socks5Addr));
  w.kv("connect_timeout_ms", num(n.connectTimeoutMs));
  w.kv("mtu", num(n.mtu));
  w.kv("startup_timeout_secs", num(n.startupTimeoutSecs));
}

void writeBle(Writer& w, const BleConfig& b) {
  w.kv("adapter", str(b.adapter));
  w.kv("psm", hex(b.psm));
  w.kv("mtu", num(b.mtu));
  w.kv("max_connections", num(b.maxConnections));
  w.kv("connect_timeout_ms", num(b.connectTimeoutMs));
  w.kv("advertise", boolean(b.advertise));
  w.kv("scan", boolean(b.scan));
  w.kv("auto_connect", boolean(b.autoConnect));
  w.kv("accept_connections", boolean(b.acceptConnections));
  w.kv("probe_cooldown_secs", num(b.probeCooldownSecs));
}

// The single form prints its keys directly, the named form one map per name.
template <typename T, typename F>
void writeInstances(Writer& w, std::string_view type, const Instances<T>& instances, F body) {
  if (instances.empty()) return;
  w.map(type, [&] {
    if (isSingle(instances)) return body(w, instances.begin()->second);
    for (const auto& entry : instances) {
      w.map(key(entry.first), [&] { body(w, entry.second); });
    }
  });
}

void writeTransports(Writer& w, const TransportsConfig& t) {
  if (t == TransportsConfig{}) return w.kv("transports", "{}");
  w.map("transports", [&] {
    writeInstances(w, "udp", t.udp, writeUdp);
    writeInstances(w, "tcp", t.tcp, writeTcp);
    writeInstances(w, "ethernet", t.ethernet, writeEthernet);
    writeInstances(w, "tor", t.tor, writeTor);
    writeInstances(w, "nym", t.nym, writeNym);
    writeInstances(w, "ble", t.ble, writeBle);
  });
}

void writePeers(Writer& w, const std::vector<PeerConfig>& peers) {
  w.list("peers", peers, [&](const PeerConfig& p) {
    w.kv("npub", str(p.npub));
    w.kv("alias", optStr(p.alias));
    w.list("addresses", p.addresses, [&](const PeerAddress& a) {
      w.kv("transport", str(a.transport));
      w.kv("addr", str(a.addr));
      w.kv("priority", num(a.priority));
    });
    w.kv("connect_policy", connectPolicyName(p.connectPolicy));
    w.kv("auto_reconnect", boolean(p.autoReconnect));
    w.kv("via_nostr", boolean(p.viaNostr));
  });
}

void writeGateway(Writer& w, const std::optional<GatewayConfig>& gateway) {
  if (!gateway) return w.comment("gateway: not configured");
  const GatewayConfig& g = *gateway;
  w.map("gateway", [&] {
    w.kv("enabled", boolean(g.enabled));
    w.kv("pool", str(g.pool));
    w.kv("lan_interface", str(g.lanInterface));
    w.map("dns", [&] {
      w.kv("listen", str(g.dns.listen));
      w.kv("upstream", str(g.dns.upstream));
      w.kv("ttl", num(g.dns.ttl));
    });
    w.kv("pool_grace_period", num(g.poolGracePeriod));
    w.map("conntrack", [&] {
      w.kv("tcp_established", num(g.conntrack.tcpEstablished));
      w.kv("udp_timeout", num(g.conntrack.udpTimeout));
      w.kv("udp_assured", num(g.conntrack.udpAssured));
      w.kv("icmp_timeout", num(g.conntrack.icmpTimeout));
    });
    w.list("port_forwards", g.portForwards, [&](const PortForward& f) {
      w.kv("listen_port", num(f.listenPort));
      w.kv("proto", f.proto == Proto::TCP ? "tcp" : "udp");
      w.kv("target", str(f.target));
    });
  });
}

void writeTopLevel(Writer& w, const Config& c) {
  w.map("tun", [&] {
    w.kv("enabled", boolean(c.tun.enabled));
    w.kv("name", str(c.tun.name));
    w.kv("mtu", num(c.tun.mtu));
  });
  w.map("dns", [&] {
    w.kv("enabled", boolean(c.dns.enabled));
    w.kv("bind_addr", str(c.dns.bindAddr));
    w.kv("port", num(c.dns.port));
    w.kv("ttl", num(c.dns.ttl));
  });
  writeTransports(w, c.transports);
  writePeers(w, c.peers);
  writeGateway(w, c.gateway);
}

}  // namespace

std::string toYaml(const Config& config) {
  Writer w;
  w.comment("fips effective configuration: every key, defaults included");
  writeNode(w, config.node);
  writeTopLevel(w, config);
  return w.take();
}

}  // namespace fips::privsep::config
