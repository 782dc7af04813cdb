// SPDX-License-Identifier: MIT
// NameService (see name-service.h).
#include "router/daemon/name-service.h"

#include <string>
#include <vector>

#include "privsep/log.h"

namespace fips::router {

NameService::NameService(privsep::EventBase& base, DnsService::ResolvedFn onResolved)
    : base_(base), onResolved_(std::move(onResolved)) {}

void NameService::start(schema::RouterConfig::Reader slice) {
  config_ = DnsServiceConfig::fromSlice(slice);
  std::vector<std::string> warnings;
  auto base = dns::hostMapFromPeers(config_->aliases, warnings);
  for (const auto& w : warnings) spdlog::warn("{}", w);
  hosts_.emplace(std::move(base), config_->hostsPath, hostsFiles_,
                 [](bool warning, const std::string& line) {
                   if (warning) {
                     spdlog::warn("{}", line);
                   } else {
                     spdlog::info("{}", line);
                   }
                 });
  byHelper_ = config_->boundByTunHelper(slice.getTunEnabled());
  if (byHelper_) {
    adopt();
    return;
  }
  if (udpHandover_ || tcpHandover_) {
    privsep::fatal("router<-tun-helper: a DNS socket the config does not ask for");
  }
  dns_ = DnsService::start(base_, *config_, *hosts_, onResolved_);
  // tunReady may have come first.
  if (dns_ && tunIfindex_) dns_->setMeshIfindex(*tunIfindex_);
}

void NameService::adoptUdp(UniqueFd fd) {
  udpHandover_ = std::move(fd);
  adopt();
}

void NameService::adoptTcp(UniqueFd fd) {
  tcpHandover_ = std::move(fd);
  adopt();
}

void NameService::setMeshIfindex(uint32_t ifindex) {
  tunIfindex_ = ifindex;
  if (dns_) dns_->setMeshIfindex(ifindex);
}

// Takes the tun-helper's DNS socket once both it and the config are here.
// Its TCP listener follows the UDP socket (dnsTcpSocketReady after
// dnsSocketReady) and is served by the same DnsService.
void NameService::adopt() {
  if (!config_) return;
  if ((udpHandover_ || tcpHandover_) && !byHelper_) {
    privsep::fatal("router<-tun-helper: a DNS socket the config does not ask for");
  }
  if (udpHandover_) {
    dns_ = DnsService::adopt(base_, std::move(udpHandover_), *config_, *hosts_, onResolved_);
    if (tunIfindex_) dns_->setMeshIfindex(*tunIfindex_);
  }
  if (tcpHandover_) {
    if (!dns_) privsep::fatal("router<-tun-helper: dnsTcpSocketReady before dnsSocketReady");
    dns_->adoptTcp(std::move(tcpHandover_));
  }
}

}  // namespace fips::router
