// SPDX-License-Identifier: MIT
// fips-router's wiring (see router-daemon.h). The mesh node core dispatches
// link messages; the ones it has no component for yet (sessions, #6) are
// counted there.
#include "router/daemon/router-daemon.h"

#include <algorithm>
#include <arpa/inet.h>
#include <filesystem>
#include <unistd.h>
#include <variant>

#include <capnp/message.h>

#include "privsep/log.h"
#include "privsep/privdrop.h"
#include "privsep/realtime.h"
#include "privsep/seccomp-filter.h"

#include "fips-build-config.h"
#include "lib/identity/fips-address.h"
#include "lib/identity/nip19.h"
#include "lib/identity/node-addr.h"
#include "router/control/service/control-commands.h"
#include "router/daemon/config-from-slice.h"
#include "router/transports/static-peers.h"

namespace fips::router {

namespace {

using TunWhich = schema::TunEvent::Which;

// SCHED_FIFO priority of the control thread: the lowest real-time one, above
// every normal thread (the data path, the workers, other processes) and below
// any real-time thread the operator runs.
constexpr int CONTROL_REALTIME_PRIORITY = 1;

std::string pathOf(const stp::Coordinates& coords) {
  std::string path;
  for (const auto& addr : coords.path()) {
    if (!path.empty()) path += ',';
    path += addr.toHex();
  }
  return path;
}

// /proc/self/exe, read before seccomp; "-" when unreadable.
std::string executablePath() {
  std::error_code ec;
  auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("-") : path.string();
}

// What the control service says about this node that never changes.
NodeFacts nodeFacts(schema::RouterConfig::Reader slice, const crypto::SecretKey& key) {
  NodeFacts facts;
  const crypto::PublicKey& id = key.publicKey();
  facts.npub = identity::encodeNpub(id);
  facts.nodeAddr = identity::NodeAddr::fromPublicKey(id);
  facts.ipv6 = identity::FipsAddress::fromNodeAddr(facts.nodeAddr).bytes();
  facts.version = FIPS_VERSION;
  facts.controlSocket = slice.getControlSocket();
  facts.exePath = executablePath();
  facts.pid = static_cast<uint32_t>(::getpid());
  facts.leafOnly = slice.getLeafOnly();
  if (slice.getTunEnabled()) facts.tunName = slice.getTunName();
  return facts;
}

}  // namespace

RouterDaemon::RouterDaemon(privsep::EventBase& base, UniqueFd tunChannel)
    : base_(base),
      transports_(base,
                  [this](const link::TransportAddr& from, std::span<const uint8_t> payload) {
                    if (mesh_) mesh_->onDatagram(from, payload);
                  }),
      supervisor_(
          base, schema::Role::ROUTER, true, [this](auto configure) { onConfigure(configure); },
          [this](const std::string& name, UniqueFd fd) { transports_.attach(name, std::move(fd)); },
          [this] { stop(); }),
      tunAllow_(std::array<privsep::AllowRule<TunWhich>, 4>{{
          {TunWhich::TUN_READY, 1u, 1},
          {TunWhich::TUN_FAILED, 1u, 1},
          {TunWhich::DNS_SOCKET_READY, 1u, 1},
          {TunWhich::DNS_TCP_SOCKET_READY, 1u, 1},
      }}),
      // An AAAA answer primes the mesh core's identity cache (spec 05 §4),
      // so traffic to the address can find its key.
      names_(base,
             [this](const crypto::PublicKey& key) {
               if (mesh_) mesh_->learnIdentity(key);
             }),
      peers_(transports_, clock_),
      control_(base, clock_, transports_, [this] { return names_.current(); }) {
  if (tunChannel) {
    privsep::ChannelLimits limits;
    limits.maxBytes = 4096;
    limits.maxFds = 1;
    limits.traversalWords = 512;
    tunChannel_ = std::make_unique<privsep::Channel>(
        base, std::move(tunChannel), "router<-tun-helper", limits,
        [this](capnp::MessageReader& r, std::vector<UniqueFd>& fds) { onTunEvent(r, fds); },
        [] { privsep::fatal("router<-tun-helper: channel closed"); });
  }
}

RouterDaemon::~RouterDaemon() = default;

// Acquire (the key) → drop → sandbox, then start the mesh node core.
void RouterDaemon::onConfigure(schema::SupervisorRequest::Configure::Reader configure) {
  if (!configure.isRouter()) privsep::fatal("supervisor: configure is not a router slice");
  auto slice = configure.getRouter();
  auto nsec = slice.getNsec();
  if (nsec.size() != 32) privsep::fatal("supervisor: nsec of wrong size");
  crypto::Secret<32> secret(std::span<const uint8_t, 32>(nsec.begin(), 32));
  supervisor_.channel().wipeReceivedMessage();
  auto key = crypto::SecretKey::fromSecret(secp_, std::move(secret));
  if (!key) privsep::fatal("supervisor: nsec is not a valid secret key");

  bool fellBack = false;
  auto user = privsep::resolveUser(slice.getUser(), &fellBack);
  if (!user) privsep::fatal("user '{}' does not exist (nor 'nobody')", slice.getUser().cStr());
  // Interface names in scoped peer addresses ("[fe80::1%eth0]:2121") are
  // looked up now: seccomp leaves the router no socket to ask with.
  std::vector<std::string> warnings;
  std::vector<DialablePeer> peers = dialablePeers(slice.getPeers(), transports_, warnings);
  // SCHED_FIFO is taken before the drop and passed on to the control thread
  // only (privsep/realtime.h); this thread leaves it once that one exists.
  const std::string noRealtime = privsep::enterRealtime(CONTROL_REALTIME_PRIORITY);
  privsep::dropToUser(*user);
  names_.start(slice);
  // The control thread starts before the filter, which is then synchronised
  // to it (seccomp-filter.cpp): its setup needs calls the router never makes.
  control_.start(slice, nodeFacts(slice, *key), tun_ != nullptr, supervisor_.takeConfigureFd(),
                 [this](auto command, auto reply) { onControlCommand(command, reply); });
  if (noRealtime.empty()) {
    if (std::string why = privsep::leaveRealtime(); !why.empty()) privsep::fatal("{}", why);
    if (control_.running()) {
      spdlog::info("control thread: SCHED_FIFO priority {}", CONTROL_REALTIME_PRIORITY);
    }
  } else if (control_.running()) {
    spdlog::info("control thread: normal priority ({}); queries may wait for a CPU under load",
                 noRealtime);
  }
  privsep::loadSeccomp(privsep::SeccompProfile::ROUTER);
  spdlog::info("running as {} (uid {}), no capabilities, seccomp on", user->name, user->uid);
  startMesh(slice, std::move(*key), std::move(peers), std::move(warnings));
  control_.publish();
  supervisor_.ready();
}

void RouterDaemon::startMesh(schema::RouterConfig::Reader slice, crypto::SecretKey key,
                             std::vector<DialablePeer> peers, std::vector<std::string> warnings) {
  const crypto::PublicKey& id = key.publicKey();
  auto addr = identity::FipsAddress::fromNodeAddr(identity::NodeAddr::fromPublicKey(id));
  spdlog::info("node {} address {}", identity::encodeNpub(id), addr.toString());
  noise::Epoch epoch{};
  if (!rng_.fill(epoch)) privsep::fatal("no randomness for the startup epoch");
  mesh_ = std::make_unique<mesh::MeshNode>(
      secp_, std::move(key), epoch, std::make_shared<const mesh::MeshConfig>(meshConfig(slice)),
      clock_, wall_, rng_, *this);
  onTreeChanged(mesh_->tree().coordinates());
  if (slice.getTransportMtu() != 0) mesh_->setTransportMtu(slice.getTransportMtu());
  if (tun_) mesh_->attachTun(tun_.get());
  control_.attachMesh(*mesh_);
  transports_.setPathMtuHandler([this](const link::TransportAddr& to, uint16_t mtu) {
    mesh_->onKernelPathMtu(to, mtu);
    transports_.flush();
  });
  peers_.start(slice, *mesh_, std::move(peers), std::move(warnings));
  uint64_t tickSecs = std::max<uint64_t>(1, slice.getLink().getTickIntervalSecs());
  tickMs_ = static_cast<uint32_t>(std::min<uint64_t>(tickSecs * 1000, UINT32_MAX));
  timeval tick{static_cast<time_t>(tickSecs), 0};
  tickTimer_.reset(event_new(base_.get(), -1, EV_PERSIST, &RouterDaemon::onTick, this));
  event_add(tickTimer_.get(), &tick);
  transports_.flush();
}

// Each component does its own part of the tick, in this order.
void RouterDaemon::onTick(evutil_socket_t, short, void* arg) {
  auto* self = static_cast<RouterDaemon*>(arg);
  self->mesh_->tick();
  const uint64_t now = self->clock_.nowMs();
  self->names_.onTick();
  self->peers_.onTick(now);
  self->transports_.flush();
  self->control_.onTick(now);
}

void RouterDaemon::onControlCommand(schema::ControlCommand::Reader command,
                                    schema::ControlReply::Builder reply) {
  if (!mesh_ || stopping_) return reply.initResult().setError("node shutting down");
  // The map as the last tick or DNS query left it: no file access per
  // command. A DNS query may have reloaded it since; show that too.
  control_.refreshNames();
  runControlCommand(command, *mesh_, transports_, peers_.resolver(), control_.hosts(),
                    control_.facts().displayNames, tickMs_, reply);
  transports_.flush();
  control_.publish();
}

// One line of what the link engine and the transports counted, at shutdown.
void RouterDaemon::logCounters() const {
  const auto& t = transports_.counters();
  const auto& l = mesh_->linkCounters();
  std::string drops;
  for (size_t i = 0; i < link::DROP_REASON_COUNT; ++i) {
    if (l.drops[i] == 0) continue;
    drops += fmt::format(" {}={}", link::toString(static_cast<link::DropReason>(i)), l.drops[i]);
  }
  spdlog::info("counters: datagrams in {} out {}; links up {} down {}; drops{}", t.datagramsIn,
               t.datagramsOut, l.linksUp, l.linksDown, drops.empty() ? " none" : drops);
}

void RouterDaemon::onTunEvent(capnp::MessageReader& reader, std::vector<UniqueFd>& fds) {
  auto event = reader.getRoot<schema::TunEvent>();
  if (!tunAllow_.admit(event.which(), 0)) privsep::fatal("router<-tun-helper: unexpected message");
  switch (event.which()) {
    case TunWhich::TUN_READY: {
      if (fds.size() != 1) privsep::fatal("router<-tun-helper: tunReady without the TUN fd");
      control_.setTunState("active");
      auto ready = event.getTunReady();
      tun_ = std::make_unique<TunDevice>(
          base_, std::move(fds[0]),
          [this](std::span<uint8_t> packet) {
            if (mesh_) mesh_->onTunPacket(packet);
          },
          [this] { transports_.flush(); });
      if (mesh_) mesh_->attachTun(tun_.get());
      names_.setMeshIfindex(ready.getIfindex());
      spdlog::info("TUN {} ready (ifindex {}, mtu {})", ready.getName().cStr(), ready.getIfindex(),
                   ready.getMtu());
      capnp::MallocMessageBuilder msg;
      msg.initRoot<schema::TunRequest>().setAccepted();
      tunChannel_->send(msg);
      break;
    }
    case TunWhich::DNS_SOCKET_READY:
      if (fds.size() != 1) privsep::fatal("router<-tun-helper: dnsSocketReady without the socket");
      names_.adoptUdp(std::move(fds[0]));
      break;
    case TunWhich::DNS_TCP_SOCKET_READY:
      if (fds.size() != 1) {
        privsep::fatal("router<-tun-helper: dnsTcpSocketReady without the socket");
      }
      names_.adoptTcp(std::move(fds[0]));
      break;
    case TunWhich::TUN_FAILED:
      spdlog::error("TUN setup failed: {}", event.getTunFailed().cStr());
      control_.setTunState("failed");
      stop();
      break;
  }
}

void RouterDaemon::sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) {
  transports_.queue(to, packet);
}

void RouterDaemon::sendProbe(const link::TransportAddr& to, std::span<const uint8_t> packet) {
  transports_.queue(to, packet, /*probe=*/true);
}

// "link mtu: <hex node addr> <before> -> <after>", parsed by pmtu-test.sh.
void RouterDaemon::onLinkMtuChanged(const identity::NodeAddr& peer, uint16_t before,
                                    uint16_t after) {
  spdlog::info("link mtu: {} {} -> {}", peer.toHex(), before, after);
}

void RouterDaemon::onLinkUp(const link::PeerInfo& peer) {
  spdlog::info("link up: {} via {} ({})", identity::encodeNpub(peer.key),
               link::toText(peer.current), peer.outbound ? "outbound" : "inbound");
}

// Both ends dialed at once and each came up inbound first: the one with the
// smaller node address now uses its outbound session (as `show peers` says).
void RouterDaemon::onLinkSwapped(const link::PeerInfo& peer) {
  spdlog::info("link now outbound: {} via {} (simultaneous dial: our outbound session kept)",
               identity::encodeNpub(peer.key), link::toText(peer.current));
}

void RouterDaemon::onLinkDown(const link::PeerInfo& peer, link::LinkDownReason reason) {
  spdlog::info("link down: {} ({})", identity::encodeNpub(peer.key), link::toString(reason));
}

// One line per change of our tree position, parsed by the integration tests:
// "tree: root <hex> depth <n> parent <hex|none> coords <hex,hex,...>".
void RouterDaemon::onTreeChanged(const stp::Coordinates& coords) {
  const auto root = coords.root();
  spdlog::info("tree: root {} depth {} parent {} coords {}", root ? root->toHex() : "none",
               coords.depth(), coords.depth() > 0 ? coords.path()[1].toHex() : "none",
               pathOf(coords));
}

// "lookup: <hex> resolved coords <hex,...>", parsed by the integration tests.
void RouterDaemon::onLookupResolved(const identity::NodeAddr& target,
                                    const stp::Coordinates& coords) {
  peers_.lookupResolved(target);
  spdlog::info("lookup: {} resolved coords {}", target.toHex(), pathOf(coords));
}

// "session: up <npub-hex> (initiator|responder)", parsed by the integration tests.
void RouterDaemon::onSessionUp(const identity::NodeAddr& peer, bool initiator) {
  spdlog::info("session: up {} ({})", peer.toHex(), initiator ? "initiator" : "responder");
}

void RouterDaemon::onSessionDown(const identity::NodeAddr& peer) {
  spdlog::info("session: down {}", peer.toHex());
}

void RouterDaemon::onLookupFailed(const identity::NodeAddr& target) {
  peers_.lookupFailed(target, clock_.nowMs());
  spdlog::info("lookup: {} unreachable", target.toHex());
}

void RouterDaemon::stop() {
  stopping_ = true;
  control_.setStopping();
  if (mesh_) {
    mesh_->shutdown();
    transports_.flush();
    logCounters();
  }
  base_.loopExit();
}

}  // namespace fips::router
