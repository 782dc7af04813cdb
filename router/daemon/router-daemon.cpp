// SPDX-License-Identifier: MIT
// fips-router's channels (see router-daemon.h). Until the link layer lands
// (issue #4) datagrams from the transports are counted and dropped.
#include "router/daemon/router-daemon.h"

#include <capnp/message.h>

#include "privsep/fd-layout.h"
#include "privsep/log.h"
#include "privsep/privdrop.h"
#include "privsep/seccomp-filter.h"
#include "router/identity/fips-address.h"
#include "router/identity/nip19.h"
#include "router/identity/node-addr.h"

namespace fips::router {

namespace {

using TunWhich = schema::TunEvent::Which;

privsep::ChannelLimits transportLimits() {
  privsep::ChannelLimits limits;
  limits.maxBytes = 256 * 1024;  // a batch of 64 datagrams of up to 2 KiB, plus framing
  limits.maxFds = 0;
  limits.traversalWords = 64 * 1024;
  return limits;
}

}  // namespace

RouterDaemon::RouterDaemon(privsep::EventBase& base)
    : base_(base),
      supervisor_(
          base, schema::Role::ROUTER, true,
          [this](auto configure) { onConfigure(configure); },
          [this](const std::string& name, privsep::UniqueFd fd) { onAttach(name, std::move(fd)); },
          [this] { stop(); }),
      tunAllow_(std::array<privsep::AllowRule<TunWhich>, 2>{{
          {TunWhich::TUN_READY, 1u, 1},
          {TunWhich::TUN_FAILED, 1u, 1},
      }}) {
  if (privsep::fdIsOpen(privsep::PEER_CHANNEL_FD)) {
    privsep::ChannelLimits limits;
    limits.maxBytes = 4096;
    limits.maxFds = 1;
    limits.traversalWords = 512;
    tunChannel_ = std::make_unique<privsep::Channel>(
        base, privsep::UniqueFd(privsep::PEER_CHANNEL_FD), "router<-tun-helper", limits,
        [this](capnp::MessageReader& r, std::vector<privsep::UniqueFd>& fds) { onTunEvent(r, fds); },
        [] { privsep::fatal("router<-tun-helper: channel closed"); });
  }
}

// Acquire (the key) → drop → sandbox, then tell the supervisor.
void RouterDaemon::onConfigure(schema::SupervisorRequest::Configure::Reader configure) {
  if (!configure.isRouter()) privsep::fatal("supervisor: configure is not a router slice");
  auto slice = configure.getRouter();
  auto nsec = slice.getNsec();
  if (nsec.size() != identity::SecretKey::SIZE) privsep::fatal("supervisor: nsec of wrong size");
  auto key = identity::SecretKey::fromBytes(std::span<const uint8_t, 32>(nsec.begin(), 32));
  supervisor_.channel().wipeReceivedMessage();
  auto* valid = std::get_if<identity::SecretKey>(&key);
  if (valid == nullptr) privsep::fatal("supervisor: nsec is not a valid secret key");
  secretKey_.emplace(std::move(*valid));
  auto pub = secretKey_->publicKey(secp_);
  auto addr = identity::FipsAddress::fromNodeAddr(identity::NodeAddr::fromPublicKey(pub));
  spdlog::info("node {} address {}", identity::encodeNpub(pub), addr.toString());

  bool fellBack = false;
  auto user = privsep::resolveUser(slice.getUser(), &fellBack);
  if (!user) privsep::fatal("user '{}' does not exist (nor 'nobody')", slice.getUser().cStr());
  privsep::dropToUser(*user);
  privsep::loadSeccomp(privsep::SeccompProfile::ROUTER);
  spdlog::info("running as {} (uid {}), no capabilities, seccomp on", user->name, user->uid);
  supervisor_.ready();
}

void RouterDaemon::onTunEvent(capnp::MessageReader& reader, std::vector<privsep::UniqueFd>& fds) {
  auto event = reader.getRoot<schema::TunEvent>();
  if (!tunAllow_.admit(event.which(), 0)) privsep::fatal("router<-tun-helper: unexpected message");
  switch (event.which()) {
    case TunWhich::TUN_READY: {
      if (fds.size() != 1) privsep::fatal("router<-tun-helper: tunReady without the TUN fd");
      tunFd_ = std::move(fds[0]);
      auto ready = event.getTunReady();
      spdlog::info("TUN {} ready (ifindex {}, mtu {})", ready.getName().cStr(),
                   ready.getIfindex(), ready.getMtu());
      capnp::MallocMessageBuilder msg;
      msg.initRoot<schema::TunRequest>().setAccepted();
      tunChannel_->send(msg);
      break;
    }
    case TunWhich::TUN_FAILED:
      spdlog::error("TUN setup failed: {}", event.getTunFailed().cStr());
      stop();
      break;
  }
}

void RouterDaemon::onAttach(const std::string& name, privsep::UniqueFd fd) {
  auto t = std::make_unique<Transport>();
  t->name = name;
  Transport* raw = t.get();
  t->channel = std::make_unique<privsep::Channel>(
      base_, std::move(fd), "router<-" + name, transportLimits(),
      [this, raw](capnp::MessageReader& r, std::vector<privsep::UniqueFd>&) {
        onTransportEvent(*raw, r);
      },
      [this, name, raw] {
        spdlog::info("transport {} detached", name);
        auto it = transports_.find(name);
        if (it != transports_.end() && it->second.get() == raw) transports_.erase(it);
      });
  transports_[name] = std::move(t);
}

void RouterDaemon::onTransportEvent(Transport& t, capnp::MessageReader& reader) {
  auto event = reader.getRoot<schema::TransportEvent>();
  if (!t.allow.admit(event.which(), static_cast<uint32_t>(t.state))) {
    privsep::fatal("router<-{}: message {} not allowed in state {}", t.name,
                   static_cast<int>(event.which()), static_cast<int>(t.state));
  }
  switch (event.which()) {
    case schema::TransportEvent::BOUND:
      t.state = Transport::State::BOUND;
      spdlog::info("transport {} bound ({} address(es))", t.name,
                   event.getBound().getLocal().size());
      break;
    case schema::TransportEvent::DATAGRAMS: {
      auto n = event.getDatagrams().size();
      counters_.datagramsIn += n;
      counters_.droppedNoLinkLayer += n;
      break;
    }
    case schema::TransportEvent::STATS:
      counters_.kernelDrops = event.getStats().getKernelDrops();
      break;
  }
}

void RouterDaemon::stop() { base_.loopExit(); }

}  // namespace fips::router
