// SPDX-License-Identifier: MIT
// NameService: the router's one host map (configured peer aliases, then the
// hosts file, reloaded when the file's stamp changes) and the `.fips` DNS
// responder that answers from it (spec 05 §4). The map also gives
// connect/disconnect/probe names, the control thread's names and display
// names. Runs on the data-plane thread of fips-router; the DNS sockets come
// from its own bind or from the tun-helper (privileged port).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "privsep/libevent.h"

#include "lib/unique-fd.h"
#include "router/daemon/dns-service.h"
#include "router/dns/host-map.h"
#include "router/dns/hosts-reloader.h"
#include "supervisor.capnp.h"

namespace fips::router {

class NameService {
 public:
  // onResolved: called with each identity an AAAA answer resolved.
  NameService(privsep::EventBase& base, DnsService::ResolvedFn onResolved);
  NameService(const NameService&) = delete;
  NameService& operator=(const NameService&) = delete;

  // Loads the host map and, unless its port is privileged (then the
  // tun-helper binds it and hands it over, possibly before this runs),
  // binds the DNS socket: after the privilege drop, before seccomp.
  void start(schema::RouterConfig::Reader slice);
  // The tun-helper's DNS sockets (dnsSocketReady, then dnsTcpSocketReady);
  // fatal when the config does not ask for them.
  void adoptUdp(UniqueFd fd);
  void adoptTcp(UniqueFd fd);
  // The TUN's ifindex: DNS queries arriving on it are dropped.
  void setMeshIfindex(uint32_t ifindex);

  // The map now in force, never null once started.
  std::shared_ptr<const dns::HostMap> current() const { return hosts_->current(); }
  // Reloads the map when the file changed (the reference does on its tick).
  void onTick() { hosts_->checkReload(); }

 private:
  void adopt();

  privsep::EventBase& base_;
  DnsService::ResolvedFn onResolved_;
  dns::PosixHostsFileSource hostsFiles_;
  std::optional<dns::HostsReloader> hosts_;
  std::unique_ptr<DnsService> dns_;
  std::optional<DnsServiceConfig> config_;  // set by start
  bool byHelper_ = false;                   // privileged port: the tun-helper binds it
  UniqueFd udpHandover_;                    // its socket, until adopted
  UniqueFd tcpHandover_;                    // its TCP listener, until adopted
  std::optional<uint32_t> tunIfindex_;
};

}  // namespace fips::router
