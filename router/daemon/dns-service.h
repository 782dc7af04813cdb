// SPDX-License-Identifier: MIT
// DnsService: the router's UDP socket for the `.fips` DNS responder
// (spec 05 §4) and its libevent wiring around router/dns. Runs in
// fips-router; datagrams come from any local client and are untrusted.
//
// Pipeline: the socket (bound before seccomp, IPV6_RECVPKTINFO on) becomes
// readable -> recvmsg into a 512-byte buffer with the arrival ifindex ->
// DnsResponder (mesh filter, hosts reload, answer) -> sendmsg back to the
// client from the address it asked -> the resolved identity to the hook.
// One datagram at a time, in arrival order; no buffer outlives a call.
// Beside it, on the same address and port, a DnsTcpListener serves the same
// responder over TCP (RFC 7766).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "privsep/libevent.h"

#include "lib/crypto/secp256k1-keys.h"
#include "lib/unique-fd.h"
#include "router/daemon/dns-tcp-listener.h"
#include "router/dns/dns-responder.h"
#include "router/dns/host-map.h"
#include "router/dns/hosts-reloader.h"
#include "supervisor.capnp.h"

namespace fips::router {

// The router's copy of its DNS settings (config slice: dns.*, the hosts
// path, the peers' aliases).
struct DnsServiceConfig {
  bool enabled = false;
  std::string bindAddr;
  uint16_t port = 0;
  uint32_t ttl = 0;  // seconds
  std::string hostsPath;
  std::vector<dns::PeerAlias> aliases;

  static DnsServiceConfig fromSlice(schema::RouterConfig::Reader slice);
  // True when the tun-helper binds the socket: a port below 1024 with the
  // TUN (and so the helper) enabled.
  bool boundByTunHelper(bool tunEnabled) const {
    return enabled && port > 0 && port < 1024 && tunEnabled;
  }
};

class DnsService {
 public:
  // Called with each identity an AAAA answer resolved.
  using ResolvedFn = std::function<void(const crypto::PublicKey&)>;

  // Binds dns.bind_addr:dns.port itself, UDP and TCP (see
  // privsep/dns-socket.h; a failed TCP bind is logged and UDP serves
  // alone), and answers from `hosts` (the router's host map, which it checks for a
  // changed file per query; it must outlive the service). Call after
  // dropping privileges and before seccomp (needs socket, setsockopt,
  // bind). Returns nullptr when dns.enabled is false or the bind fails
  // (logged: the node runs on without DNS, as the reference does).
  static std::unique_ptr<DnsService> start(privsep::EventBase& base, const DnsServiceConfig& config,
                                           dns::HostsReloader& hosts, ResolvedFn onResolved);
  // Serves on a socket the tun-helper bound (privileged port); needs no
  // syscall beyond the seccomp list.
  static std::unique_ptr<DnsService> adopt(privsep::EventBase& base, UniqueFd fd,
                                           const DnsServiceConfig& config,
                                           dns::HostsReloader& hosts, ResolvedFn onResolved);

  // Serves TCP on a listening socket the tun-helper bound (privileged
  // port, dnsTcpSocketReady).
  void adoptTcp(UniqueFd listener);

  DnsService(const DnsService&) = delete;
  DnsService& operator=(const DnsService&) = delete;
  ~DnsService();

  // The TUN's ifindex: queries arriving on it are dropped from now on.
  void setMeshIfindex(uint32_t ifindex) { responder_.setMeshIfindex(ifindex); }

  const dns::DnsCounters& counters() const { return responder_.counters(); }
  // Null while no TCP listener runs.
  const DnsTcpListener* tcp() const { return tcp_.get(); }

 private:
  DnsService(privsep::EventBase& base, UniqueFd fd, uint32_t ttl, dns::HostsReloader& hosts,
             ResolvedFn onResolved);
  static void onReadable(evutil_socket_t, short, void* arg);
  // Serves up to a burst of queued datagrams; false when the socket is empty.
  bool serveOne();

  privsep::EventBase& base_;
  UniqueFd fd_;
  dns::DnsResponder responder_;
  ResolvedFn onResolved_;
  privsep::EventPtr event_;
  bool meshDropLogged_ = false;
  std::unique_ptr<DnsTcpListener> tcp_;
};

}  // namespace fips::router
