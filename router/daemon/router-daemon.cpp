// SPDX-License-Identifier: MIT
// fips-router's wiring (see router-daemon.h). The mesh node core dispatches
// link messages; the ones it has no component for yet (sessions, #6) are
// counted there.
#include "router/daemon/router-daemon.h"

#include <algorithm>
#include <arpa/inet.h>
#include <filesystem>
#include <map>
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
#include "router/daemon/config-from-slice.h"
#include "router/daemon/control-commands.h"
#include "router/daemon/static-peers.h"

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
          [this](const std::string& name, UniqueFd fd) {
            transports_.attach(name, std::move(fd));
          },
          [this] { stop(); }),
      tunAllow_(std::array<privsep::AllowRule<TunWhich>, 4>{{
          {TunWhich::TUN_READY, 1u, 1},
          {TunWhich::TUN_FAILED, 1u, 1},
          {TunWhich::DNS_SOCKET_READY, 1u, 1},
          {TunWhich::DNS_TCP_SOCKET_READY, 1u, 1},
      }}) {
  if (tunChannel) {
    privsep::ChannelLimits limits;
    limits.maxBytes = 4096;
    limits.maxFds = 1;
    limits.traversalWords = 512;
    tunChannel_ = std::make_unique<privsep::Channel>(
        base, std::move(tunChannel), "router<-tun-helper", limits,
        [this](capnp::MessageReader& r, std::vector<UniqueFd>& fds) {
          onTunEvent(r, fds);
        },
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
  startDns(slice);
  // The control thread starts before the filter, which is then synchronised
  // to it (seccomp-filter.cpp): its setup needs calls the router never makes.
  startControl(slice, *key);
  if (noRealtime.empty()) {
    if (std::string why = privsep::leaveRealtime(); !why.empty()) privsep::fatal("{}", why);
    if (control_) spdlog::info("control thread: SCHED_FIFO priority {}", CONTROL_REALTIME_PRIORITY);
  } else if (control_) {
    spdlog::info("control thread: normal priority ({}); queries may wait for a CPU under load",
                 noRealtime);
  }
  privsep::loadSeccomp(privsep::SeccompProfile::ROUTER);
  spdlog::info("running as {} (uid {}), no capabilities, seccomp on", user->name, user->uid);
  startMesh(slice, std::move(*key), std::move(peers), std::move(warnings));
  publishSnapshot();
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
  const auto link = slice.getLink();
  resolver_ = std::make_unique<PeerResolver>(
      link.getRetryBaseIntervalSecs() * 1000, link.getRetryMaxBackoffSecs() * 1000,
      [this](uint32_t transport, uint32_t request, const std::string& host, uint16_t port) {
        return transports_.resolve(transport, request, host, port);
      },
      [this](const crypto::PublicKey& peer, std::vector<link::TransportAddr> addrs,
             bool ephemeral) {
        // A connect-time name (fipsctl connect) is dialed once at its first address.
        const bool taken = ephemeral ? mesh_->addEphemeralPeer(peer, addrs.front())
                                     : mesh_->setStaticPeerAddrs(peer, std::move(addrs));
        if (!taken) spdlog::warn("peer {}: addresses refused", identity::encodeNpub(peer));
      });
  transports_.setPathMtuHandler([this](const link::TransportAddr& to, uint16_t mtu) {
    mesh_->onKernelPathMtu(to, mtu);
    transports_.flush();
  });
  transports_.setResolvedHandler(
      [this](uint32_t transport, uint32_t request, auto addrs, const std::string& error) {
        resolver_->onResolved(transport, request, std::move(addrs), error, clock_.nowMs());
        transports_.flush();
      });
  for (auto& peer : peers) {
    if (!peer.hosts.empty()) {
      resolver_->add(peer.key, peer.name, std::move(peer.addrs), std::move(peer.hosts));
    } else if (!mesh_->addStaticPeer(peer.key, peer.addrs)) {
      warnings.push_back("peer " + peer.name + ": refused");
    }
  }
  for (auto peer : slice.getPeers()) {
    if (peer.getAutoConnect()) continue;
    auto decoded = identity::decodeNpub(std::string(peer.getNpub()));
    if (decoded.ok()) onDemand_.add(*mesh_, decoded.value());
  }
  for (const auto& w : warnings) spdlog::warn("{}", w);
  resolveDue();
  uint64_t tickSecs = std::max<uint64_t>(1, slice.getLink().getTickIntervalSecs());
  tickMs_ = static_cast<uint32_t>(std::min<uint64_t>(tickSecs * 1000, UINT32_MAX));
  timeval tick{static_cast<time_t>(tickSecs), 0};
  tickTimer_.reset(event_new(base_.get(), -1, EV_PERSIST, &RouterDaemon::onTick, this));
  event_add(tickTimer_.get(), &tick);
  transports_.flush();
}

// The DNS socket is bound here, unprivileged and before seccomp, unless its
// port is privileged: then the tun-helper binds it and hands it over
// (dnsSocketReady, possibly before this runs).
void RouterDaemon::startDns(schema::RouterConfig::Reader slice) {
  dnsConfig_ = DnsServiceConfig::fromSlice(slice);
  std::vector<std::string> warnings;
  auto base = dns::hostMapFromPeers(dnsConfig_->aliases, warnings);
  for (const auto& w : warnings) spdlog::warn("{}", w);
  hosts_.emplace(std::move(base), dnsConfig_->hostsPath, hostsFiles_,
                 [](bool warning, const std::string& line) {
                   if (warning) {
                     spdlog::warn("{}", line);
                   } else {
                     spdlog::info("{}", line);
                   }
                 });
  dnsByHelper_ = dnsConfig_->boundByTunHelper(slice.getTunEnabled());
  if (dnsByHelper_) {
    adoptDnsSocket();
    return;
  }
  if (dnsHandover_ || dnsTcpHandover_) {
    privsep::fatal("router<-tun-helper: a DNS socket the config does not ask for");
  }
  dns_ = DnsService::start(base_, *dnsConfig_, *hosts_, dnsResolvedHook());
  // tunReady may have come first.
  if (dns_ && tunIfindex_) dns_->setMeshIfindex(*tunIfindex_);
}

// Takes the tun-helper's DNS socket once both it and the config are here.
// Its TCP listener follows the UDP socket (dnsTcpSocketReady after
// dnsSocketReady) and is served by the same DnsService.
void RouterDaemon::adoptDnsSocket() {
  if (!dnsConfig_) return;
  if ((dnsHandover_ || dnsTcpHandover_) && !dnsByHelper_) {
    privsep::fatal("router<-tun-helper: a DNS socket the config does not ask for");
  }
  if (dnsHandover_) {
    dns_ =
        DnsService::adopt(base_, std::move(dnsHandover_), *dnsConfig_, *hosts_, dnsResolvedHook());
    if (tunIfindex_) dns_->setMeshIfindex(*tunIfindex_);
  }
  if (dnsTcpHandover_) {
    if (!dns_) privsep::fatal("router<-tun-helper: dnsTcpSocketReady before dnsSocketReady");
    dns_->adoptTcp(std::move(dnsTcpHandover_));
  }
}

// An AAAA answer primes the mesh core's identity cache (spec 05 §4), so
// traffic to the address can find its key.
DnsService::ResolvedFn RouterDaemon::dnsResolvedHook() {
  return [this](const crypto::PublicKey& key) {
    if (mesh_) mesh_->learnIdentity(key);
  };
}

void RouterDaemon::onTick(evutil_socket_t, short, void* arg) {
  auto* self = static_cast<RouterDaemon*>(arg);
  self->mesh_->tick();
  // The reference reloads its host map on the tick too (rx_loop).
  self->hosts_->checkReload();
  self->refreshNames();
  self->onDemand_.tick(*self->mesh_, self->clock_.nowMs());
  self->logRekeys();
  self->resolveDue();
  self->transports_.flush();
  self->sampleHistory();
  self->publishSnapshot();
}

void RouterDaemon::startControl(schema::RouterConfig::Reader slice, const crypto::SecretKey& key) {
  UniqueFd listenFd = supervisor_.takeConfigureFd();
  facts_ = nodeFacts(slice, key);
  if (slice.getTunEnabled()) tunState_ = tun_ ? "active" : "configured";
  if (!listenFd) {
    if (slice.getControlUnavailable().size() == 0) {
      spdlog::info("control socket disabled (node.control.enabled: false)");
    } else {
      spdlog::warn(
          "running without a control socket ({}): fipsctl and fipstop cannot reach this node",
          slice.getControlUnavailable().cStr());
    }
    return;
  }
  refreshNames();
  capnp::MallocMessageBuilder first;
  buildSnapshot(snapshotInput(), first.initRoot<schema::NodeSnapshot>());
  control::ControlLimits limits;
  limits.jsonCompat = slice.getControlJsonCompat();
  if (limits.jsonCompat) spdlog::info("control socket: JSON-line clients answered too");
  control_ = std::make_unique<ControlPlane>(
      base_, std::move(listenFd),
      [this](auto command, auto result) { onControlCommand(command, result); }, first, limits);
  control_->publishNames(shownHosts_);
}

void RouterDaemon::refreshNames() {
  auto current = hosts_->current();
  if (current == shownHosts_) return;
  shownHosts_ = std::move(current);
  facts_.displayNames = shownHosts_->names();
  if (control_) control_->publishNames(shownHosts_);
}

SnapshotInput RouterDaemon::snapshotInput() const {
  SnapshotInput in;
  in.facts = &facts_;
  in.state = stopping_ ? "stopping" : "running";
  in.tunState = tunState_;
  in.nowMonoMs = clock_.nowMs();
  in.nowUnixMs = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count());
  if (mesh_) {
    in.peers = mesh_->snapshot().peers;
    in.pendingHandshakes = mesh_->pendingHandshakes();
    in.linkCounters = mesh_->linkCounters();
    in.linkMessagesIgnored = mesh_->counters().unhandled;
    in.mesh = mesh_.get();
    in.routing = collectRouting(*mesh_);
  }
  in.transports = transports_.workers();
  in.transportCounters = transports_.counters();
  return in;
}

void RouterDaemon::publishSnapshot() {
  if (!control_) return;
  capnp::MallocMessageBuilder msg;
  buildSnapshot(snapshotInput(), msg.initRoot<schema::NodeSnapshot>());
  control_->publish(msg);
}

void RouterDaemon::sampleHistory() {
  if (!control_ || !mesh_) return;
  historySampler_.sample(*mesh_, facts_, clock_.nowMs(), control_->history());
}

void RouterDaemon::onControlCommand(schema::ControlCommand::Reader command,
                                    schema::ControlReply::Builder reply) {
  if (!mesh_ || stopping_) return reply.initResult().setError("node shutting down");
  // The map as the last tick or DNS query left it: no file access per
  // command. A DNS query may have reloaded it since; show that too.
  refreshNames();
  runControlCommand(command, *mesh_, transports_, resolver_.get(), *shownHosts_,
                    facts_.displayNames, tickMs_, reply);
  transports_.flush();
  publishSnapshot();
}

// Rekeys are hitless and the engine does not report them; the count per
// peer is compared once a tick so a completed cutover shows in the log.
void RouterDaemon::logRekeys() {
  std::map<identity::NodeAddr, uint64_t> seen;
  for (const auto& peer : mesh_->snapshot().peers) {
    const auto it = rekeysSeen_.find(peer.addr);
    if (it != rekeysSeen_.end() && peer.rekeys > it->second) {
      spdlog::info("link rekeyed: {} ({} rekeys, index {})", identity::encodeNpub(peer.key),
                   peer.rekeys, peer.ourIndex);
    }
    seen[peer.addr] = peer.rekeys;
  }
  rekeysSeen_ = std::move(seen);
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

void RouterDaemon::resolveDue() {
  const auto up = mesh_->snapshot().peers;
  resolver_->tick(clock_.nowMs(), [&up](const identity::NodeAddr& peer) {
    return std::any_of(up.begin(), up.end(), [&](const auto& p) { return p.addr == peer; });
  });
}

void RouterDaemon::onTunEvent(capnp::MessageReader& reader, std::vector<UniqueFd>& fds) {
  auto event = reader.getRoot<schema::TunEvent>();
  if (!tunAllow_.admit(event.which(), 0)) privsep::fatal("router<-tun-helper: unexpected message");
  switch (event.which()) {
    case TunWhich::TUN_READY: {
      if (fds.size() != 1) privsep::fatal("router<-tun-helper: tunReady without the TUN fd");
      tunState_ = "active";
      auto ready = event.getTunReady();
      tun_ = std::make_unique<TunDevice>(
          base_, std::move(fds[0]),
          [this](std::span<uint8_t> packet) {
            if (mesh_) mesh_->onTunPacket(packet);
          },
          [this] { transports_.flush(); });
      if (mesh_) mesh_->attachTun(tun_.get());
      tunIfindex_ = ready.getIfindex();
      if (dns_) dns_->setMeshIfindex(*tunIfindex_);
      spdlog::info("TUN {} ready (ifindex {}, mtu {})", ready.getName().cStr(), ready.getIfindex(),
                   ready.getMtu());
      capnp::MallocMessageBuilder msg;
      msg.initRoot<schema::TunRequest>().setAccepted();
      tunChannel_->send(msg);
      break;
    }
    case TunWhich::DNS_SOCKET_READY:
      if (fds.size() != 1) privsep::fatal("router<-tun-helper: dnsSocketReady without the socket");
      dnsHandover_ = std::move(fds[0]);
      adoptDnsSocket();
      break;
    case TunWhich::DNS_TCP_SOCKET_READY:
      if (fds.size() != 1) {
        privsep::fatal("router<-tun-helper: dnsTcpSocketReady without the socket");
      }
      dnsTcpHandover_ = std::move(fds[0]);
      adoptDnsSocket();
      break;
    case TunWhich::TUN_FAILED:
      spdlog::error("TUN setup failed: {}", event.getTunFailed().cStr());
      tunState_ = "failed";
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
  onDemand_.resolved(target);
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
  onDemand_.failed(target, clock_.nowMs());
  spdlog::info("lookup: {} unreachable", target.toHex());
}

void RouterDaemon::stop() {
  stopping_ = true;
  if (mesh_) {
    mesh_->shutdown();
    transports_.flush();
    logCounters();
  }
  base_.loopExit();
}

}  // namespace fips::router
