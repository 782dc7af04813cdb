// SPDX-License-Identifier: MIT
// Typed `transports.*` section of fips.yaml (spec 08 §3.3): one struct per
// transport type, its member initializers the reference's defaults and its
// keys in transport-fields.h, each configurable as one
// unnamed instance or as named instances. Built by the loader in the fips
// supervisor and fipsctl from operator-owned input; values are validated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace fips::privsep::config {

// Instances of one transport type, by name. The single (unnamed) YAML form
// `udp: {bind_addr: ...}` is stored under the empty name; the named form
// `udp: {lan: {...}, wan: {...}}` under each non-empty name. Empty = the type
// is not configured (no transport is implicit).
template <typename T>
using Instances = std::map<std::string, T>;

// True when `instances` holds the one unnamed instance of the single form.
template <typename T>
bool isSingle(const Instances<T>& instances) {
  return instances.size() == 1 && instances.begin()->first.empty();
}

// `transports.udp`. Normalized at load: outbound_only forces bindAddr to
// "0.0.0.0:0" and advertiseOnNostr and acceptConnections to false.
struct UdpConfig {
  std::string bindAddr = "0.0.0.0:2121";
  std::uint16_t mtu = 1280;
  std::size_t recvBufSize = 2097152;
  std::size_t sendBufSize = 2097152;
  bool advertiseOnNostr = false;
  bool isPublic = false;  // YAML key `public`
  // Bare IP (the bind port is appended) or ip:port.
  std::optional<std::string> externalAddr;
  bool outboundOnly = false;
  bool acceptConnections = true;

  bool operator==(const UdpConfig&) const = default;
};

struct TcpConfig {
  // Unset: no listener.
  std::optional<std::string> bindAddr;
  std::uint16_t mtu = 1400;
  std::uint64_t connectTimeoutMs = 5000;
  bool nodelay = true;
  std::uint64_t keepaliveSecs = 30;
  std::size_t recvBufSize = 2097152;
  std::size_t sendBufSize = 2097152;
  std::size_t maxInboundConnections = 256;
  bool advertiseOnNostr = false;
  std::optional<std::string> externalAddr;

  bool operator==(const TcpConfig&) const = default;
};

// `transports.ethernet`. beaconIntervalSecs is raised to 10 at load.
struct EthernetConfig {
  std::string interface;  // required
  std::uint16_t ethertype = 0x2121;
  // Unset: interface MTU - 3; a set value is capped at that by the worker.
  std::optional<std::uint16_t> mtu;
  std::size_t recvBufSize = 2097152;
  std::size_t sendBufSize = 2097152;
  bool listen = true;  // YAML alias `discovery`
  bool announce = false;
  bool autoConnect = false;
  bool acceptConnections = false;
  std::uint64_t beaconIntervalSecs = 30;

  bool operator==(const EthernetConfig&) const = default;
};

enum class TorMode { SOCKS5, CONTROL_PORT, DIRECTORY };

struct TorDirectoryServiceConfig {
  std::string hostnameFile = "/var/lib/tor/fips_onion_service/hostname";
  std::string bindAddr = "127.0.0.1:8443";

  bool operator==(const TorDirectoryServiceConfig&) const = default;
};

struct TorConfig {
  TorMode mode = TorMode::SOCKS5;
  std::string socks5Addr = "127.0.0.1:9050";
  std::uint64_t connectTimeoutMs = 120000;
  std::uint16_t mtu = 1400;
  std::string controlAddr = "/run/tor/control";  // Unix path or host:port
  // `cookie`, `cookie:<path>` or `password:<secret>` (a secret: toYaml omits it).
  std::string controlAuth = "cookie";
  std::string cookiePath = "/var/run/tor/control.authcookie";
  std::size_t maxInboundConnections = 64;
  TorDirectoryServiceConfig directoryService;
  bool advertiseOnNostr = false;
  std::uint16_t advertisedPort = 443;

  bool operator==(const TorConfig&) const = default;
};

struct NymConfig {
  std::string socks5Addr = "127.0.0.1:1080";
  std::uint64_t connectTimeoutMs = 300000;
  std::uint16_t mtu = 1400;
  std::uint64_t startupTimeoutSecs = 120;

  bool operator==(const NymConfig&) const = default;
};

struct BleConfig {
  std::string adapter = "hci0";
  std::uint16_t psm = 0x0085;
  std::uint16_t mtu = 2048;
  std::size_t maxConnections = 7;
  std::uint64_t connectTimeoutMs = 10000;
  bool advertise = true;
  bool scan = true;
  bool autoConnect = false;
  bool acceptConnections = true;
  std::uint64_t probeCooldownSecs = 30;

  bool operator==(const BleConfig&) const = default;
};

struct TransportsConfig {
  Instances<UdpConfig> udp;
  Instances<TcpConfig> tcp;
  Instances<EthernetConfig> ethernet;
  Instances<TorConfig> tor;
  Instances<NymConfig> nym;
  Instances<BleConfig> ble;

  bool operator==(const TransportsConfig&) const = default;
};

}  // namespace fips::privsep::config
