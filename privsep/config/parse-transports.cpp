// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: reads `transports.*` (spec 08 §3.3), each
// type as one unnamed instance or a map of named ones, and applies the
// reference's forced values. Runs in the fips supervisor and fipsctl on
// operator-owned input; bad values become messages.
#include <algorithm>
#include <string_view>

#include "privsep/config/config-parse.h"

namespace fips::privsep::config {

namespace {

constexpr std::uint64_t MIN_BEACON_INTERVAL_SECS = 10;
// The only map-valued field of any single-instance form.
constexpr std::string_view TOR_DIRECTORY_SERVICE = "directory_service";

constexpr EnumName<TorMode> TOR_MODES[] = {
    {"socks5", TorMode::SOCKS5},
    {"control_port", TorMode::CONTROL_PORT},
    {"directory", TorMode::DIRECTORY},
};

void parseUdp(MapReader& r, UdpConfig& out) {
  r.read("bind_addr", out.bindAddr);
  r.read("mtu", out.mtu);
  r.read("recv_buf_size", out.recvBufSize);
  r.read("send_buf_size", out.sendBufSize);
  r.read("advertise_on_nostr", out.advertiseOnNostr);
  r.read("public", out.isPublic);
  r.read("external_addr", out.externalAddr);
  r.read("outbound_only", out.outboundOnly);
  r.read("accept_connections", out.acceptConnections);
  if (out.outboundOnly) {
    // Pure-client posture: ephemeral port, never advertised, no inbound msg1.
    out.bindAddr = "0.0.0.0:0";
    out.advertiseOnNostr = false;
    out.acceptConnections = false;
  }
}

void parseTcp(MapReader& r, TcpConfig& out) {
  r.read("bind_addr", out.bindAddr);
  r.read("mtu", out.mtu);
  r.read("connect_timeout_ms", out.connectTimeoutMs);
  r.read("nodelay", out.nodelay);
  r.read("keepalive_secs", out.keepaliveSecs);
  r.read("recv_buf_size", out.recvBufSize);
  r.read("send_buf_size", out.sendBufSize);
  r.read("max_inbound_connections", out.maxInboundConnections);
  r.read("advertise_on_nostr", out.advertiseOnNostr);
  r.read("external_addr", out.externalAddr);
}

void parseEthernet(MapReader& r, EthernetConfig& out) {
  if (!r.has("interface")) r.context().error(r.line(), r.pathOf("interface"), "is required");
  r.read("interface", out.interface);
  r.read("ethertype", out.ethertype);
  r.read("mtu", out.mtu);
  r.read("recv_buf_size", out.recvBufSize);
  r.read("send_buf_size", out.sendBufSize);
  r.read("listen", out.listen);
  r.read("discovery", out.listen);  // the reference's alias of `listen`
  r.read("announce", out.announce);
  r.read("auto_connect", out.autoConnect);
  r.read("accept_connections", out.acceptConnections);
  r.read("beacon_interval_secs", out.beaconIntervalSecs);
  out.beaconIntervalSecs = std::max(out.beaconIntervalSecs, MIN_BEACON_INTERVAL_SECS);
}

void parseTor(MapReader& r, TorConfig& out) {
  r.readEnum("mode", out.mode, TOR_MODES);
  r.read("socks5_addr", out.socks5Addr);
  r.read("connect_timeout_ms", out.connectTimeoutMs);
  r.read("mtu", out.mtu);
  r.read("control_addr", out.controlAddr);
  r.read("control_auth", out.controlAuth);
  r.read("cookie_path", out.cookiePath);
  r.read("max_inbound_connections", out.maxInboundConnections);
  r.section(TOR_DIRECTORY_SERVICE, [&](MapReader& d) {
    d.acceptNullAsDefault();
    d.read("hostname_file", out.directoryService.hostnameFile);
    d.read("bind_addr", out.directoryService.bindAddr);
  });
  r.read("advertise_on_nostr", out.advertiseOnNostr);
  r.read("advertised_port", out.advertisedPort);
}

void parseNym(MapReader& r, NymConfig& out) {
  r.read("socks5_addr", out.socks5Addr);
  r.read("connect_timeout_ms", out.connectTimeoutMs);
  r.read("mtu", out.mtu);
  r.read("startup_timeout_secs", out.startupTimeoutSecs);
}

void parseBle(MapReader& r, BleConfig& out) {
  r.read("adapter", out.adapter);
  r.read("psm", out.psm);
  r.read("mtu", out.mtu);
  r.read("max_connections", out.maxConnections);
  r.read("connect_timeout_ms", out.connectTimeoutMs);
  r.read("advertise", out.advertise);
  r.read("scan", out.scan);
  r.read("auto_connect", out.autoConnect);
  r.read("accept_connections", out.acceptConnections);
  r.read("probe_cooldown_secs", out.probeCooldownSecs);
}

// The named form: a non-empty map whose values are all maps, none of them a
// field of the single form (tor's directory_service). Anything else is read
// as the single form, where stray keys become unknown-key warnings.
bool isNamedForm(const YAML::Node& node) {
  if (!node.IsMap() || node.size() == 0) return false;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->second.IsMap()) return false;
    if (it->first.IsScalar() && it->first.Scalar() == TOR_DIRECTORY_SERVICE) return false;
  }
  return true;
}

template <typename T, typename Parse>
void parseInstances(MapReader& transports, std::string_view type, Instances<T>& out,
                    Parse parseOne) {
  std::optional<YAML::Node> node = transports.take(type);
  if (!node || node->IsNull()) return;
  const std::string path = transports.pathOf(type);
  const int line = transports.lineOf(type);
  auto parseInstance = [&](MapReader& r, const std::string& name) {
    r.acceptNullAsDefault();
    T instance;
    parseOne(r, instance);
    out[name] = std::move(instance);
  };
  if (!isNamedForm(*node)) {
    MapReader single(transports.context(), *node, path, line);
    parseInstance(single, "");
    single.finish();
    return;
  }
  MapReader named(transports.context(), *node, path, line);
  for (const std::string& name : named.keys()) {
    if (name.empty()) {
      named.context().error(named.lineOf(name), path, "an instance name must not be empty");
      named.take(name);
      continue;
    }
    named.section(name, [&](MapReader& r) { parseInstance(r, name); });
  }
  named.finish();
}

}  // namespace

void parseTransports(MapReader& r, TransportsConfig& out) {
  parseInstances(r, "udp", out.udp, parseUdp);
  parseInstances(r, "tcp", out.tcp, parseTcp);
  parseInstances(r, "ethernet", out.ethernet, parseEthernet);
  parseInstances(r, "tor", out.tor, parseTor);
  parseInstances(r, "nym", out.nym, parseNym);
  parseInstances(r, "ble", out.ble, parseBle);
}

}  // namespace fips::privsep::config
