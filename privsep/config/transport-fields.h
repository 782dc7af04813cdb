// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the field tables of `transports.*`
// (spec 08 §3.3), one per transport type, and TRANSPORT_KINDS, the list of
// types. A new transport type is a struct in transport-config.h, a table
// here and one TRANSPORT_KINDS line; the parser, validator and writer handle
// its single and named (`transports.udp.NAME`) forms generically.
// Compile-time only; runs in the fips supervisor and fipsctl.
#pragma once

#include <algorithm>
#include <tuple>

#include "privsep/config/field-checks.h"
#include "privsep/config/field-spec.h"
#include "privsep/config/transport-config.h"

namespace fips::privsep::config {

inline std::optional<std::string_view> hideTorPassword(const std::string& auth) {
  if (auth.starts_with("password:")) return "control_auth is a password (not shown)";
  return std::nullopt;
}

// One transport type: its YAML name, its instances in TransportsConfig, its
// table, and what the loader forces after reading an instance.
template <typename T, typename Table>
struct TransportKind {
  std::string_view type;
  Instances<T> TransportsConfig::*instances;
  const Table* fields;
  std::string_view doc;
  void (*normalize)(T& instance) = nullptr;
};

template <typename T, typename Table>
constexpr TransportKind<T, Table> kind(std::string_view type,
                                       Instances<T> TransportsConfig::*instances,
                                       const Table& fields, std::string_view doc,
                                       void (*normalize)(T&) = nullptr) {
  return {type, instances, &fields, doc, normalize};
}

// Pure-client posture: ephemeral port, never advertised, no inbound msg1.
inline void normalizeUdp(UdpConfig& udp) {
  if (!udp.outboundOnly) return;
  udp.bindAddr = "0.0.0.0:0";
  udp.advertiseOnNostr = false;
  udp.acceptConnections = false;
}

constexpr std::uint64_t MIN_BEACON_INTERVAL_SECS = 10;

inline void normalizeEthernet(EthernetConfig& eth) {
  eth.beaconIntervalSecs = std::max(eth.beaconIntervalSecs, MIN_BEACON_INTERVAL_SECS);
}

inline constexpr std::tuple UDP_FIELDS{
    field("bind_addr", &UdpConfig::bindAddr, "address:port to listen on",
          {.check = checks::socketAddress}),
    field("mtu", &UdpConfig::mtu, "datagram size (>= 1280)", {.check = checks::ipv6LinkMtu}),
    field("recv_buf_size", &UdpConfig::recvBufSize, "SO_RCVBUF bytes"),
    field("send_buf_size", &UdpConfig::sendBufSize, "SO_SNDBUF bytes"),
    field("advertise_on_nostr", &UdpConfig::advertiseOnNostr, "advertise this endpoint"),
    field("public", &UdpConfig::isPublic, "the endpoint is reachable as is (no NAT)"),
    field("external_addr", &UdpConfig::externalAddr, "advertised IP or ip:port; unset: STUN",
          {.check = checks::ipOrSocketAddress}),
    field("outbound_only", &UdpConfig::outboundOnly, "client only: ephemeral port, no inbound"),
    field("accept_connections", &UdpConfig::acceptConnections, "answer inbound handshakes"),
};

inline constexpr std::tuple TCP_FIELDS{
    field("bind_addr", &TcpConfig::bindAddr, "address:port to listen on; unset: no listener",
          {.check = checks::optSocketAddress}),
    field("mtu", &TcpConfig::mtu, "frame size (>= 1280)", {.check = checks::ipv6LinkMtu}),
    field("connect_timeout_ms", &TcpConfig::connectTimeoutMs, "outbound connect timeout",
          {.check = checks::atLeastOne}),
    field("nodelay", &TcpConfig::nodelay, "TCP_NODELAY"),
    field("keepalive_secs", &TcpConfig::keepaliveSecs, "TCP keepalive"),
    field("recv_buf_size", &TcpConfig::recvBufSize, "SO_RCVBUF bytes"),
    field("send_buf_size", &TcpConfig::sendBufSize, "SO_SNDBUF bytes"),
    field("max_inbound_connections", &TcpConfig::maxInboundConnections, "inbound connections"),
    field("advertise_on_nostr", &TcpConfig::advertiseOnNostr, "advertise this endpoint"),
    field("external_addr", &TcpConfig::externalAddr, "advertised IP or ip:port",
          {.check = checks::ipOrSocketAddress}),
};

inline constexpr std::tuple ETHERNET_FIELDS{
    field("interface", &EthernetConfig::interface, "the interface (required)",
          {.check = checks::interfaceName, .required = true}),
    field("ethertype", &EthernetConfig::ethertype, "EtherType of FIPS frames", {.hex = true}),
    field("mtu", &EthernetConfig::mtu, "unset: interface MTU - 3"),
    field("recv_buf_size", &EthernetConfig::recvBufSize, "SO_RCVBUF bytes"),
    field("send_buf_size", &EthernetConfig::sendBufSize, "SO_SNDBUF bytes"),
    field("listen", &EthernetConfig::listen, "listen for beacons (alias: discovery)",
          {.alias = "discovery"}),
    field("announce", &EthernetConfig::announce, "send beacons"),
    field("auto_connect", &EthernetConfig::autoConnect, "connect to beaconing nodes"),
    field("accept_connections", &EthernetConfig::acceptConnections, "answer inbound handshakes"),
    field("beacon_interval_secs", &EthernetConfig::beaconIntervalSecs, "beacon interval (>= 10)"),
};

inline constexpr std::tuple TOR_DIRECTORY_FIELDS{
    field("hostname_file", &TorDirectoryServiceConfig::hostnameFile,
          "the onion service's hostname file"),
    field("bind_addr", &TorDirectoryServiceConfig::bindAddr, "where the onion service forwards",
          {.check = checks::socketAddress}),
};

inline constexpr std::tuple TOR_FIELDS{
    field("mode", &TorConfig::mode, "socks5, control_port or directory"),
    field("socks5_addr", &TorConfig::socks5Addr, "Tor's SOCKS5 port", {.check = checks::hostPort}),
    field("connect_timeout_ms", &TorConfig::connectTimeoutMs, "outbound connect timeout"),
    field("mtu", &TorConfig::mtu, "frame size"),
    field("control_addr", &TorConfig::controlAddr, "Tor's control port: Unix path or host:port",
          {.check = checks::unixPathOrHostPort}),
    field("control_auth", &TorConfig::controlAuth, "cookie, cookie:<path> or password:<secret>",
          {.check = checks::torControlAuth, .hide = hideTorPassword}),
    field("cookie_path", &TorConfig::cookiePath, "Tor's control auth cookie"),
    field("max_inbound_connections", &TorConfig::maxInboundConnections, "inbound connections"),
    section("directory_service", &TorConfig::directoryService, TOR_DIRECTORY_FIELDS,
            "directory mode: an onion service Tor runs for us", SectionMode::MERGE, true),
    field("advertise_on_nostr", &TorConfig::advertiseOnNostr, "advertise the onion address"),
    field("advertised_port", &TorConfig::advertisedPort, "advertised onion port"),
};

inline constexpr std::tuple NYM_FIELDS{
    field("socks5_addr", &NymConfig::socks5Addr, "the Nym client's SOCKS5 port",
          {.check = checks::hostPort}),
    field("connect_timeout_ms", &NymConfig::connectTimeoutMs, "outbound connect timeout"),
    field("mtu", &NymConfig::mtu, "frame size"),
    field("startup_timeout_secs", &NymConfig::startupTimeoutSecs, "wait for the Nym client"),
};

inline constexpr std::tuple BLE_FIELDS{
    field("adapter", &BleConfig::adapter, "Bluetooth adapter"),
    field("psm", &BleConfig::psm, "L2CAP PSM", {.hex = true}),
    field("mtu", &BleConfig::mtu, "frame size"),
    field("max_connections", &BleConfig::maxConnections, "connections at once"),
    field("connect_timeout_ms", &BleConfig::connectTimeoutMs, "outbound connect timeout"),
    field("advertise", &BleConfig::advertise, "advertise this node"),
    field("scan", &BleConfig::scan, "scan for nodes"),
    field("auto_connect", &BleConfig::autoConnect, "connect to nodes found"),
    field("accept_connections", &BleConfig::acceptConnections, "answer inbound connections"),
    field("probe_cooldown_secs", &BleConfig::probeCooldownSecs, "between probes of one device"),
};

inline constexpr std::tuple TRANSPORT_KINDS{
    kind("udp", &TransportsConfig::udp, UDP_FIELDS, "UDP (fips-transport-udp)", normalizeUdp),
    kind("tcp", &TransportsConfig::tcp, TCP_FIELDS, "TCP"),
    kind("ethernet", &TransportsConfig::ethernet, ETHERNET_FIELDS, "raw Ethernet frames",
         normalizeEthernet),
    kind("tor", &TransportsConfig::tor, TOR_FIELDS, "Tor onion services"),
    kind("nym", &TransportsConfig::nym, NYM_FIELDS, "the Nym mixnet"),
    kind("ble", &TransportsConfig::ble, BLE_FIELDS, "Bluetooth LE (L2CAP)"),
};

}  // namespace fips::privsep::config
