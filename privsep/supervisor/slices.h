// SPDX-License-Identifier: MIT
// What each child is told: building the config slices of supervisor.capnp
// from the validated Config, and comparing configs on SIGHUP. Runs in `fips`.
// Each child gets only what it needs: the secret key goes to the router
// alone, the node address to the tun-helper, bind settings to a transport.
#pragma once

#include <string>
#include <vector>

#include <capnp/message.h>

#include <spdlog/spdlog.h>

#include "privsep/config/config.h"
#include "privsep/privdrop.h"
#include "privsep/supervisor/node-identity.h"

#include "supervisor.capnp.h"

namespace fips::privsep::supervisor {

// node.log_level as configured (reference parsing: unknown names mean info).
spdlog::level::level_enum configuredLogLevel(const config::Config& cfg);

// spdlog level → schema LogLevel (off and critical map to error).
schema::LogLevel toSchemaLevel(spdlog::level::level_enum level);

// The router's slice: the 32-byte secret key, TUN settings, user name,
// static peers, link settings, dns.* and the hosts file path (env
// FIPS_HOSTS_FILE, else /etc/fips/hosts), the control socket's path ("" when
// there is none) and, when it is enabled but could not be bound, why.
void fillRouterSlice(schema::RouterConfig::Builder out, const config::Config& cfg,
                     const NodeIdentity& identity, const UserIds& user,
                     const std::string& controlSocket, const std::string& controlUnavailable);

// The tun-helper's slice: device name, MTU, the node's fd00::/8 address, and
// dns.bind_addr/port when the port is privileged (the helper binds it).
void fillTunSlice(schema::TunConfig::Builder out, const config::Config& cfg,
                  const NodeIdentity& identity, const UserIds& user);

// A UDP worker's slice for transports.udp[instance] ("" = unnamed).
void fillUdpSlice(schema::TransportConfig::Builder out, const config::UdpConfig& udp,
                  const std::string& instance, const UserIds& user);
// A TCP worker's slice for transports.tcp[instance] ("" = unnamed); an unset
// bind_addr is "" (no listener).
void fillTcpSlice(schema::TransportConfig::Builder out, const config::TcpConfig& tcp,
                  const std::string& instance, const UserIds& user);

// The dotted fips.yaml keys that differ and take effect only after a
// restart: every changed key but node.log_level (applied on SIGHUP) and
// peers (reported on its own).
std::vector<std::string> restartOnlyChanges(const config::Config& before,
                                            const config::Config& after);

// Zeroes every segment of `message` (after it held key material).
void wipeMessage(capnp::MallocMessageBuilder& message);

}  // namespace fips::privsep::supervisor
