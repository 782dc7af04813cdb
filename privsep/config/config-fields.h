// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the field tables of the top-level
// sections tun, dns, peers[] and gateway (spec 08 §3.1, §3.4, §5), in print
// order; node.* and transports.* have their own (node-fields.h,
// transport-fields.h). Compile-time only; runs in the fips supervisor and
// fipsctl.
#pragma once

#include <tuple>

#include "privsep/config/config.h"
#include "privsep/config/field-checks.h"
#include "privsep/config/field-spec.h"
#include "privsep/config/node-fields.h"
#include "privsep/config/transport-fields.h"

namespace fips::privsep::config {

inline constexpr std::tuple TUN_FIELDS{
    field("enabled", &TunConfig::enabled, "create the TUN device (IPv6 over the mesh)"),
    field("name", &TunConfig::name, "its name", {.check = checks::interfaceName}),
    field("mtu", &TunConfig::mtu, "its MTU (>= 1280)", {.check = checks::ipv6LinkMtu}),
};

inline constexpr std::tuple DNS_FIELDS{
    field("enabled", &DnsConfig::enabled, "answer .fips names"),
    field("bind_addr", &DnsConfig::bindAddr, "an IP address, no port",
          {.check = checks::ipAddress}),
    field("port", &DnsConfig::port, "UDP port"),
    field("ttl", &DnsConfig::ttl, "TTL of answers (s)"),
};

inline constexpr std::tuple PEER_ADDRESS_FIELDS{
    field("transport", &PeerAddress::transport, "<type> or udp/<instance>", {.required = true}),
    field("addr", &PeerAddress::addr, "host:port, nat, a MAC... by transport", {.required = true}),
    field("priority", &PeerAddress::priority, "lowest is tried first"),
};

inline constexpr std::tuple PEER_FIELDS{
    field("npub", &PeerConfig::npub, "the peer's key", {.required = true}),
    field("alias", &PeerConfig::alias, "a name for fipsctl and .fips DNS"),
    listOf("addresses", &PeerConfig::addresses, PEER_ADDRESS_FIELDS, "where to reach it"),
    field("connect_policy", &PeerConfig::connectPolicy, "auto_connect, on_demand or manual"),
    field("auto_reconnect", &PeerConfig::autoReconnect, "reconnect after a link loss"),
    field("via_nostr", &PeerConfig::viaNostr, "find it through Nostr rendezvous"),
};

inline constexpr std::tuple GATEWAY_DNS_FIELDS{
    field("listen", &GatewayDnsConfig::listen, "LAN DNS address:port",
          {.check = checks::socketAddress}),
    field("upstream", &GatewayDnsConfig::upstream, "the node's .fips resolver",
          {.check = checks::socketAddress}),
    field("ttl", &GatewayDnsConfig::ttl, "TTL of answers (s)"),
};

inline constexpr std::tuple CONNTRACK_FIELDS{
    field("tcp_established", &ConntrackConfig::tcpEstablished, "seconds (not applied)"),
    field("udp_timeout", &ConntrackConfig::udpTimeout, "seconds (not applied)"),
    field("udp_assured", &ConntrackConfig::udpAssured, "seconds (not applied)"),
    field("icmp_timeout", &ConntrackConfig::icmpTimeout, "seconds (not applied)"),
};

inline constexpr std::tuple PORT_FORWARD_FIELDS{
    field("listen_port", &PortForward::listenPort, "LAN port", {.required = true}),
    field("proto", &PortForward::proto, "tcp or udp", {.required = true}),
    field("target", &PortForward::target, "[IPv6]:port in the mesh",
          {.check = checks::socketAddressV6, .required = true}),
};

inline constexpr std::tuple GATEWAY_FIELDS{
    field("enabled", &GatewayConfig::enabled, "run fips-gateway"),
    field("pool", &GatewayConfig::pool, "virtual IPv6 pool (CIDR)",
          {.check = checks::ipv6Cidr, .required = true}),
    field("lan_interface", &GatewayConfig::lanInterface, "the LAN side",
          {.check = checks::interfaceName, .required = true}),
    section("dns", &GatewayConfig::dns, GATEWAY_DNS_FIELDS, "the LAN DNS proxy", SectionMode::MERGE,
            true),
    NullIsDefaultFromHere{},
    field("pool_grace_period", &GatewayConfig::poolGracePeriod, "seconds a freed address rests"),
    section("conntrack", &GatewayConfig::conntrack, CONNTRACK_FIELDS, "parsed, never applied",
            SectionMode::MERGE, true),
    listOf("port_forwards", &GatewayConfig::portForwards, PORT_FORWARD_FIELDS,
           "LAN ports forwarded into the mesh"),
};

inline constexpr std::tuple CONFIG_PEERS{
    listOf("peers", &Config::peers, PEER_FIELDS, "static peers"),
};

// The top level before transports (TRANSPORT_KINDS), CONFIG_PEERS and the
// optional gateway (GATEWAY_FIELDS).
inline constexpr std::tuple CONFIG_FIELDS{
    section("node", &Config::node, NODE_FIELDS, "the node"),
    section("tun", &Config::tun, TUN_FIELDS, "the TUN device", SectionMode::MERGE, true),
    section("dns", &Config::dns, DNS_FIELDS, "the .fips resolver", SectionMode::MERGE, true),
};

}  // namespace fips::privsep::config
