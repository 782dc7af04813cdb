// SPDX-License-Identifier: MIT
// DnsService (see dns-service.h).
#include "router/daemon/dns-service.h"

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include "privsep/dns-socket.h"

#include "lib/identity/nip19.h"

namespace fips::router {

namespace {

constexpr int BURST = 64;  // datagrams served per wake-up before yielding to the loop

}  // namespace

DnsServiceConfig DnsServiceConfig::fromSlice(schema::RouterConfig::Reader slice) {
  DnsServiceConfig c;
  auto dns = slice.getDns();
  c.enabled = dns.getEnabled();
  c.bindAddr = dns.getBindAddr();
  c.port = dns.getPort();
  c.ttl = dns.getTtl();
  c.hostsPath = dns.getHostsPath();
  for (auto peer : slice.getPeers()) {
    if (peer.getAlias().size() > 0) c.aliases.push_back({peer.getAlias(), peer.getNpub()});
  }
  return c;
}

std::unique_ptr<DnsService> DnsService::start(privsep::EventBase& base,
                                              const DnsServiceConfig& config,
                                              dns::HostsReloader& hosts, ResolvedFn onResolved) {
  if (!config.enabled) return nullptr;
  std::string error;
  auto fd = privsep::bindDnsSocket(config.bindAddr, config.port, error);
  if (!fd) {
    spdlog::error("DNS responder not started on {}: {}{}",
                  privsep::dnsEndpointText(config.bindAddr, config.port), error,
                  config.port < 1024 ? " (a port below 1024 needs tun.enabled: the tun-helper "
                                       "binds it)"
                                     : "");
    return nullptr;
  }
  auto service = adopt(base, std::move(fd), config, hosts, std::move(onResolved));
  auto tcp = privsep::bindDnsTcpSocket(config.bindAddr, config.port, error);
  if (!tcp) {
    spdlog::error("DNS over TCP not started on {}: {} (UDP only)",
                  privsep::dnsEndpointText(config.bindAddr, config.port), error);
  } else {
    service->adoptTcp(std::move(tcp));
  }
  return service;
}

void DnsService::adoptTcp(UniqueFd listener) {
  tcp_ = std::make_unique<DnsTcpListener>(
      base_, std::move(listener),
      [this](std::span<const uint8_t> query) -> std::optional<std::vector<uint8_t>> {
        // The listener already refused mesh peers: no arrival interface to check.
        auto reply = responder_.handle(query, std::nullopt);
        if (!reply) return std::nullopt;
        if (reply->resolved) onResolved_(*reply->resolved);
        return std::move(reply->bytes);
      });
  spdlog::info("DNS responder also over TCP (at most {} connections, {} s idle)",
               DNS_TCP_MAX_CONNECTIONS, DNS_TCP_IDLE_SECS);
}

std::unique_ptr<DnsService> DnsService::adopt(privsep::EventBase& base, UniqueFd fd,
                                              const DnsServiceConfig& config,
                                              dns::HostsReloader& hosts, ResolvedFn onResolved) {
  std::unique_ptr<DnsService> service(
      new DnsService(base, std::move(fd), config.ttl, hosts, std::move(onResolved)));
  service->event_.reset(event_new(base.get(), service->fd_.get(), EV_READ | EV_PERSIST,
                                  &DnsService::onReadable, service.get()));
  event_add(service->event_.get(), nullptr);
  spdlog::info("DNS responder for .fips on {} ({} host aliases, hosts file {})",
               privsep::dnsEndpointText(config.bindAddr, config.port), hosts.hosts().size(),
               hosts.path());
  return service;
}

DnsService::DnsService(privsep::EventBase& base, UniqueFd fd, uint32_t ttl,
                       dns::HostsReloader& hosts, ResolvedFn onResolved)
    : base_(base), fd_(std::move(fd)), responder_(ttl, hosts), onResolved_(std::move(onResolved)) {}

DnsService::~DnsService() = default;

void DnsService::onReadable(evutil_socket_t, short, void* arg) {
  auto* self = static_cast<DnsService*>(arg);
  for (int i = 0; i < BURST && self->serveOne(); ++i) {
  }
}

bool DnsService::serveOne() {
  uint8_t buf[dns::DNS_MAX_QUERY];
  sockaddr_storage from{};
  alignas(cmsghdr) uint8_t control[CMSG_SPACE(sizeof(in6_pktinfo))];
  iovec iov{buf, sizeof(buf)};
  msghdr msg{};
  msg.msg_name = &from;
  msg.msg_namelen = sizeof(from);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t n = ::recvmsg(fd_.get(), &msg, MSG_DONTWAIT);
  if (n < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      spdlog::warn("DNS recvmsg: {}", std::strerror(errno));
    }
    return false;
  }
  std::optional<in6_pktinfo> info;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO &&
        c->cmsg_len >= CMSG_LEN(sizeof(in6_pktinfo))) {
      in6_pktinfo p{};
      std::memcpy(&p, CMSG_DATA(c), sizeof(p));
      info = p;
    }
  }
  // A datagram longer than the buffer was cut to its first 512 bytes, as in
  // the reference.
  const size_t len = std::min(static_cast<size_t>(n), sizeof(buf));
  std::optional<uint32_t> arrival;
  if (info) arrival = static_cast<uint32_t>(info->ipi6_ifindex);
  auto reply = responder_.handle(std::span<const uint8_t>(buf, len), arrival);
  if (!meshDropLogged_ && responder_.counters().meshDropped > 0) {
    meshDropLogged_ = true;  // once: later drops are only counted
    spdlog::info("DNS: dropping queries that arrive on the mesh interface (ifindex {})",
                 arrival.value_or(0));
  }
  if (!reply) return true;
  if (reply->resolved) {
    spdlog::debug("DNS resolved {}", identity::shortNpub(*reply->resolved));
    onResolved_(*reply->resolved);
  }
  // Answer from the address the client asked (matters on a wildcard bind).
  iovec out{reply->bytes.data(), reply->bytes.size()};
  msghdr sent{};
  sent.msg_name = &from;
  sent.msg_namelen = msg.msg_namelen;
  sent.msg_iov = &out;
  sent.msg_iovlen = 1;
  alignas(cmsghdr) uint8_t sendControl[CMSG_SPACE(sizeof(in6_pktinfo))] = {};
  if (info) {
    in6_pktinfo src{};
    src.ipi6_addr = info->ipi6_addr;
    if (IN6_IS_ADDR_LINKLOCAL(&src.ipi6_addr)) src.ipi6_ifindex = info->ipi6_ifindex;
    sent.msg_control = sendControl;
    sent.msg_controllen = sizeof(sendControl);
    cmsghdr* c = CMSG_FIRSTHDR(&sent);
    c->cmsg_level = IPPROTO_IPV6;
    c->cmsg_type = IPV6_PKTINFO;
    c->cmsg_len = CMSG_LEN(sizeof(src));
    std::memcpy(CMSG_DATA(c), &src, sizeof(src));
  }
  if (::sendmsg(fd_.get(), &sent, MSG_DONTWAIT) < 0) {
    spdlog::debug("DNS sendmsg: {}", std::strerror(errno));
  }
  return true;
}

}  // namespace fips::router
