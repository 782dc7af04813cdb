// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: reads the top level, tun, dns, peers[]
// and gateway (spec 08 §3.1, §3.4, §5) and dispatches node/transports. Runs
// in the fips supervisor and fipsctl on operator-owned input; bad values
// become messages.
#include <fmt/format.h>

#include "privsep/config/config-parse.h"

namespace fips::privsep::config {

namespace {

constexpr EnumName<ConnectPolicy> CONNECT_POLICIES[] = {
    {"auto_connect", ConnectPolicy::AUTO_CONNECT},
    {"on_demand", ConnectPolicy::ON_DEMAND},
    {"manual", ConnectPolicy::MANUAL},
};

constexpr EnumName<Proto> PROTOS[] = {
    {"tcp", Proto::TCP},
    {"udp", Proto::UDP},
};

void require(MapReader& r, std::string_view key) {
  if (!r.has(key)) r.context().error(r.line(), r.pathOf(key), "is required");
}

// Reads the list under `key` with `parseItem(reader, item)` for each map in it.
template <typename T, typename Parse>
void parseList(MapReader& parent, std::string_view key, std::vector<T>& out, Parse parseItem) {
  std::optional<YAML::Node> node = parent.take(key);
  if (!node || node->IsNull()) return;
  ParseContext& ctx = parent.context();
  const std::string path = parent.pathOf(key);
  const int line = parent.lineOf(key);
  if (!node->IsSequence()) {
    ctx.error(line, path, "expected a list, got " + describe(*node));
    return;
  }
  std::size_t index = 0;
  for (auto it = node->begin(); it != node->end(); ++it, ++index) {
    const std::string itemPath = fmt::format("{}[{}]", path, index);
    const int itemLine = nodeLine(*it, line);
    if (!ctx.admitListItem()) {
      ctx.error(
          itemLine, itemPath,
          fmt::format("the file holds more than {} list entries", ParseContext::MAX_LIST_ITEMS));
      return;
    }
    ctx.record(itemPath, itemLine);
    if (!it->IsMap()) {
      ctx.error(itemLine, itemPath, "expected a map, got " + describe(*it));
      continue;
    }
    MapReader item(ctx, *it, itemPath, itemLine);
    T value;
    parseItem(item, value);
    item.finish();
    out.push_back(std::move(value));
  }
}

void parseAddress(MapReader& r, PeerAddress& out) {
  require(r, "transport");
  require(r, "addr");
  r.read("transport", out.transport);
  r.read("addr", out.addr);
  r.read("priority", out.priority);
}

void parsePeer(MapReader& r, PeerConfig& out) {
  require(r, "npub");
  r.read("npub", out.npub);
  r.read("alias", out.alias);
  parseList(r, "addresses", out.addresses, parseAddress);
  r.readEnum("connect_policy", out.connectPolicy, CONNECT_POLICIES);
  r.read("auto_reconnect", out.autoReconnect);
  r.read("via_nostr", out.viaNostr);
}

void parsePortForward(MapReader& r, PortForward& out) {
  require(r, "listen_port");
  require(r, "proto");
  require(r, "target");
  r.read("listen_port", out.listenPort);
  r.readEnum("proto", out.proto, PROTOS);
  r.read("target", out.target);
}

void parseGateway(MapReader& r, GatewayConfig& out) {
  require(r, "pool");
  require(r, "lan_interface");
  r.read("enabled", out.enabled);
  r.read("pool", out.pool);
  r.read("lan_interface", out.lanInterface);
  r.section("dns", [&](MapReader& s) {
    s.acceptNullAsDefault();
    s.read("listen", out.dns.listen);
    s.read("upstream", out.dns.upstream);
    s.read("ttl", out.dns.ttl);
  });
  r.acceptNullAsDefault();
  r.read("pool_grace_period", out.poolGracePeriod);
  r.section("conntrack", [&](MapReader& s) {
    s.acceptNullAsDefault();
    s.read("tcp_established", out.conntrack.tcpEstablished);
    s.read("udp_timeout", out.conntrack.udpTimeout);
    s.read("udp_assured", out.conntrack.udpAssured);
    s.read("icmp_timeout", out.conntrack.icmpTimeout);
  });
  parseList(r, "port_forwards", out.portForwards, parsePortForward);
}

}  // namespace

Config parseDocument(ParseContext& ctx, const YAML::Node& root) {
  Config config;
  MapReader top(ctx, root, "", 1);
  top.section("node", [&](MapReader& r) { parseNode(r, config.node); });
  top.section("tun", [&](MapReader& r) {
    r.acceptNullAsDefault();
    r.read("enabled", config.tun.enabled);
    r.read("name", config.tun.name);
    r.read("mtu", config.tun.mtu);
  });
  top.section("dns", [&](MapReader& r) {
    r.acceptNullAsDefault();
    r.read("enabled", config.dns.enabled);
    r.read("bind_addr", config.dns.bindAddr);
    r.read("port", config.dns.port);
    r.read("ttl", config.dns.ttl);
  });
  top.section("transports", [&](MapReader& r) { parseTransports(r, config.transports); });
  parseList(top, "peers", config.peers, parsePeer);
  if (std::optional<YAML::Node> gateway = top.take("gateway"); gateway && !gateway->IsNull()) {
    GatewayConfig parsed;
    MapReader r(ctx, *gateway, "gateway", top.lineOf("gateway"));
    parseGateway(r, parsed);
    r.finish();
    config.gateway = std::move(parsed);
  }
  top.finish();
  return config;
}

}  // namespace fips::privsep::config
