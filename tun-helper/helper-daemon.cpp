// SPDX-License-Identifier: MIT
// fips-tun-helper's process logic (see helper-daemon.h).
#include "tun-helper/helper-daemon.h"

#include <cstring>
#include <signal.h>

#include <linux/capability.h>

#include <capnp/message.h>

#include "privsep/dns-socket.h"
#include "privsep/fd-layout.h"
#include "privsep/log.h"
#include "privsep/privdrop.h"
#include "privsep/seccomp-filter.h"

#include "tun-helper/tun-error.h"

namespace fips::tunhelper {

namespace {

// Logs what the policy-routing guard did: a warning naming each rule that would capture mesh
// traffic (issue #25: another VPN's catch-all took all of it, and nothing was logged).
void logGuard(const GuardReport& report) {
  if (report.status == RuleStatus::UNSUPPORTED) return;
  for (const auto& rule : report.newCaptures) {
    if (report.outranked && rule.priority == 0) {
      spdlog::error(
          "policy rule '{}' captures mesh traffic to fd00::/8 and no rule can precede "
          "pref 0: mesh traffic goes where it says",
          rule.text());
    } else {
      spdlog::warn(
          "policy rule '{}' would capture mesh traffic to fd00::/8: rule 'to fd00::/8 "
          "lookup main' kept ahead of it at pref {}",
          rule.text(), report.priority);
    }
  }
  for (uint32_t from : report.movedFrom) {
    spdlog::info("rule 'to fd00::/8 lookup main' moved from pref {} to pref {}", from,
                 report.priority);
  }
  if (report.added && report.movedFrom.empty()) {
    spdlog::info("rule 'to fd00::/8 lookup main' added at pref {}", report.priority);
  }
}

privsep::ChannelLimits routerLimits() {
  privsep::ChannelLimits limits;
  limits.maxBytes = 256;
  limits.maxFds = 0;
  limits.traversalWords = 32;
  return limits;
}

}  // namespace

HelperDaemon::HelperDaemon(privsep::EventBase& base)
    : base_(base),
      router_(
          base, UniqueFd(privsep::PEER_CHANNEL_FD), "tun-helper<-router", routerLimits(),
          [this](capnp::MessageReader& r, std::vector<UniqueFd>&) { onRouterMessage(r); },
          [this] {
            spdlog::info("router went away: stopping");
            stop();
          }),
      supervisor_(
          base, schema::Role::TUN_HELPER, false, [this](auto c) { onConfigure(c); },
          [](const std::string&, UniqueFd) {}, [this] { stop(); }),
      allow_(std::array<privsep::AllowRule<bool>, 1>{{
          {true, privsep::stateBit(State::FD_SENT), 1},
      }}) {
  sigterm_.reset(evsignal_new(base.get(), SIGTERM, &HelperDaemon::onSignal, this));
  sigint_.reset(evsignal_new(base.get(), SIGINT, &HelperDaemon::onSignal, this));
  event_add(sigterm_.get(), nullptr);
  event_add(sigint_.get(), nullptr);
}

// Acquire (the interface) → drop (to NET_ADMIN+NET_RAW) → sandbox → hand over.
void HelperDaemon::onConfigure(schema::SupervisorRequest::Configure::Reader configure) {
  if (!configure.isTun()) privsep::fatal("supervisor: configure is not a tun slice");
  auto slice = configure.getTun();
  TunSettings settings;
  settings.name = slice.getName();
  settings.mtu = slice.getMtu();
  auto address = slice.getAddress();
  if (address.size() != 16) privsep::fatal("supervisor: node address is not 16 bytes");
  std::memcpy(settings.address.s6_addr, address.begin(), 16);
  try {
    interface_ = std::make_unique<TunInterface>(settings);
  } catch (const TunError& e) {
    spdlog::error("{}", e.what());
    capnp::MallocMessageBuilder msg;
    msg.initRoot<schema::TunEvent>().setTunFailed(e.what());
    router_.send(msg);
    exitStatus_ = 1;
    base_.loopExit();
    return;
  }
  logGuard(interface_->initialRuleReport());
  if (interface_->initialRuleReport().status != RuleStatus::UNSUPPORTED) {
    ruleMonitor_ = std::make_unique<RuleMonitor>(base_, [this] { onRulesChanged(); });
  }
  bindDnsSocket(slice);
  bool fellBack = false;
  auto user = privsep::resolveUser(slice.getUser(), &fellBack);
  if (!user) privsep::fatal("user '{}' does not exist (nor 'nobody')", slice.getUser().cStr());
  privsep::dropToUserKeeping(*user, {CAP_NET_ADMIN, CAP_NET_RAW});
  privsep::loadSeccomp(privsep::SeccompProfile::TUN_HELPER);
  spdlog::info("{} up (mtu {}), running as {} with CAP_NET_ADMIN+CAP_NET_RAW", interface_->name(),
               interface_->mtu(), user->name);
  capnp::MallocMessageBuilder msg;
  auto ready = msg.initRoot<schema::TunEvent>().initTunReady();
  ready.setName(interface_->name());
  ready.setIfindex(interface_->ifindex());
  ready.setMtu(interface_->mtu());
  router_.send(msg, interface_->fd());
  if (dnsSocket_) {
    capnp::MallocMessageBuilder dnsMsg;
    dnsMsg.initRoot<schema::TunEvent>().setDnsSocketReady(slice.getDnsPort());
    router_.send(dnsMsg, dnsSocket_.get());
    dnsSocket_.reset();
  }
  if (dnsTcpSocket_) {
    capnp::MallocMessageBuilder tcpMsg;
    tcpMsg.initRoot<schema::TunEvent>().setDnsTcpSocketReady(slice.getDnsPort());
    router_.send(tcpMsg, dnsTcpSocket_.get());
    dnsTcpSocket_.reset();
  }
  state_ = State::FD_SENT;
  supervisor_.ready();
}

// A privileged dns.port (from the config, never from the router) is bound
// here while still root; a failure is logged and the node runs without DNS.
void HelperDaemon::bindDnsSocket(schema::TunConfig::Reader slice) {
  if (slice.getDnsPort() == 0) return;
  std::string error;
  dnsSocket_ = privsep::bindDnsSocket(slice.getDnsBindAddr(), slice.getDnsPort(), error);
  const auto where = privsep::dnsEndpointText(slice.getDnsBindAddr(), slice.getDnsPort());
  if (!dnsSocket_) {
    spdlog::error("DNS responder not started on {}: {}", where, error);
    return;
  }
  spdlog::info("bound DNS socket {} for the router", where);
  dnsTcpSocket_ = privsep::bindDnsTcpSocket(slice.getDnsBindAddr(), slice.getDnsPort(), error);
  if (!dnsTcpSocket_) {
    spdlog::error("DNS over TCP not started on {}: {} (UDP only)", where, error);
  } else {
    spdlog::info("bound DNS TCP listener {} for the router", where);
  }
}

void HelperDaemon::onRulesChanged() {
  if (!interface_) return;
  try {
    logGuard(interface_->reassertRule());
  } catch (const TunError& e) {
    spdlog::error("policy rule guard: {}", e.what());
  }
}

void HelperDaemon::onRouterMessage(capnp::MessageReader& reader) {
  reader.getRoot<schema::TunRequest>().getAccepted();
  if (!allow_.admit(true, static_cast<uint32_t>(state_))) {
    privsep::fatal("tun-helper<-router: message not allowed in state {}", static_cast<int>(state_));
  }
  state_ = State::DONE;
  spdlog::debug("router holds the TUN device");
}

void HelperDaemon::stop() {
  ruleMonitor_.reset();
  if (interface_) {
    try {
      interface_->remove();
      spdlog::info("removed {}", interface_->name());
    } catch (const TunError& e) {
      spdlog::error("{}", e.what());
    }
  }
  base_.loopExit();
}

void HelperDaemon::onSignal(evutil_socket_t, short, void* arg) {
  static_cast<HelperDaemon*>(arg)->stop();
}

}  // namespace fips::tunhelper
