// SPDX-License-Identifier: MIT
// The typed fips.yaml: `Config` and its top-level sections (tun, dns, peers,
// gateway; node.* and transports.* have their own headers). Plain value
// aggregates whose member initializers are the reference's defaults (keys in
// config-fields.h), built and validated by the loader
// in the fips supervisor and fipsctl from operator-owned files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "privsep/config/node-config.h"
#include "privsep/config/transport-config.h"

namespace fips::privsep::config {

struct TunConfig {
  bool enabled = false;
  std::string name = "fips0";
  std::uint16_t mtu = 1280;

  bool operator==(const TunConfig&) const = default;
};

struct DnsConfig {
  bool enabled = true;
  std::string bindAddr = "::1";  // an IP address, no port
  std::uint16_t port = 5354;
  std::uint32_t ttl = 300;

  bool operator==(const DnsConfig&) const = default;
};

enum class ConnectPolicy { AUTO_CONNECT, ON_DEMAND, MANUAL };

// One static address of a peer. `transport` is `<type>` or `udp/<instance>`.
struct PeerAddress {
  std::string transport;
  std::string addr;             // host:port, "nat", a MAC, ... depending on the transport
  std::uint8_t priority = 100;  // lowest first

  bool operator==(const PeerAddress&) const = default;
};

struct PeerConfig {
  std::string npub;
  std::optional<std::string> alias;
  std::vector<PeerAddress> addresses;
  ConnectPolicy connectPolicy = ConnectPolicy::AUTO_CONNECT;
  bool autoReconnect = true;
  bool viaNostr = false;

  bool operator==(const PeerConfig&) const = default;
};

enum class Proto { TCP, UDP };

struct PortForward {
  std::uint16_t listenPort = 0;
  Proto proto = Proto::TCP;
  std::string target;  // "[IPv6]:port"

  bool operator==(const PortForward&) const = default;
};

struct GatewayDnsConfig {
  std::string listen = "[::1]:5353";
  std::string upstream = "[::1]:5354";
  std::uint32_t ttl = 60;

  bool operator==(const GatewayDnsConfig&) const = default;
};

// Parsed but never applied by the reference (spec 08 §5).
struct ConntrackConfig {
  std::uint64_t tcpEstablished = 432000;
  std::uint64_t udpTimeout = 30;
  std::uint64_t udpAssured = 180;
  std::uint64_t icmpTimeout = 30;

  bool operator==(const ConntrackConfig&) const = default;
};

// `gateway` (used by fips-gateway; fips only keeps it).
struct GatewayConfig {
  bool enabled = false;
  std::string pool;          // required, IPv6 CIDR
  std::string lanInterface;  // required
  GatewayDnsConfig dns;
  std::uint64_t poolGracePeriod = 60;
  ConntrackConfig conntrack;
  std::vector<PortForward> portForwards;

  bool operator==(const GatewayConfig&) const = default;
};

// The whole effective configuration.
struct Config {
  NodeConfig node;
  TunConfig tun;
  DnsConfig dns;
  TransportsConfig transports;
  std::vector<PeerConfig> peers;
  std::optional<GatewayConfig> gateway;

  bool operator==(const Config&) const = default;
};

// Overwrites the secrets the config holds before they are released:
// node.identity.nsec is wiped and unset, a Tor `password:<secret>` becomes
// `password:`. Call once the router and the Tor worker have their copies.
void wipeSecrets(Config& config);

}  // namespace fips::privsep::config
