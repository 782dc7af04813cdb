// SPDX-License-Identifier: MIT
// MeshNode: the sans-IO core of one FIPS node at the mesh layer (spec 02,
// spec 03). It owns the FMP link engine and the mesh components (spanning
// tree, bloom filters, lookup, coordinate and identity caches, next-hop
// selection), hands each authenticated link message to the component of its
// type, sends what they produce, ticks them, and exposes snapshots for the
// daemon, the control surface and the simulator. Runs in fips-router
// (and many times in one process in tests/sim); datagrams handed to
// onDatagram() are untrusted.
//
// Order of work in every entry point: the link engine runs first and
// reports link up/down and link messages through LinkIo; those are handed to
// the components at once, and what the components want sent is queued and
// sent once the engine call has returned (the engine must not be re-entered
// from its own callbacks).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/bloom/bloom-state.h"
#include "router/fmp/fmp-constants.h"
#include "router/fsp/session-table.h"
#include "router/ipv6/icmpv6.h"
#include "router/link/link-io.h"
#include "router/link/link-manager.h"
#include "router/lookup/lookup-state.h"
#include "router/mesh/mesh-config.h"
#include "router/mesh/mesh-io.h"
#include "router/mesh/tun-io.h"
#include "router/noise/dh-suites.h"
#include "router/noise/handshake.h"
#include "router/routing/coord-cache.h"
#include "router/routing/forwarding.h"
#include "router/routing/identity-cache.h"
#include "router/routing/mesh-view.h"
#include "router/routing/next-hop.h"
#include "router/stp/coordinates.h"
#include "router/stp/tree-state.h"

namespace fips::router::mesh {

// Link message counts by msg_type (spec 02 §8): one count per type of
// fmp::LinkMessageType and one for every other byte. 80 bytes where a
// count per byte value took 2 KiB in every node.
class MessageCounts {
 public:
  void add(fmp::LinkMessageType type) { ++counts_[slot(type)]; }
  // The count of one type (a type outside LinkMessageType: all of those).
  uint64_t of(fmp::LinkMessageType type) const { return counts_[slot(type)]; }
  uint64_t total() const;

 private:
  static constexpr size_t OTHER = 9;
  static size_t slot(fmp::LinkMessageType type);
  std::array<uint64_t, OTHER + 1> counts_{};
};

// Link messages by type, in and out, and the ones no component took.
struct MeshCounters {
  MessageCounts messagesIn;
  MessageCounts messagesOut;  // sent by the components
  uint64_t unhandled = 0;     // types with no component yet (#5, #6)
  uint64_t sendFailures = 0;  // the peer went away before the send
  // SessionDatagrams this node sourced are counted once, by the Forwarder
  // (forwarding(): originatedPackets/Bytes).

  // Every link message the components sent (tree, bloom, lookup): the
  // mesh's control traffic. Heartbeats and handshakes are the link engine's.
  uint64_t controlMessagesOut() const;
};

// What the IPv6 adapter (mesh-node-tun.cpp) did with packets, for stats.
struct Ipv6Counters {
  uint64_t tunIn = 0;            // packets read from the TUN
  uint64_t sent = 0;             // handed to the session layer (sent or queued)
  uint64_t delivered = 0;        // written to the TUN from sessions
  uint64_t hairpinned = 0;       // addressed to ourselves
  uint64_t unreachableSent = 0;  // ICMPv6 Destination Unreachable written
  uint64_t tooBigSent = 0;       // ICMPv6 Packet Too Big written
  uint64_t icmpRateLimited = 0;  // errors not sent (rate limit or never-answer rules)
  uint64_t dropped = 0;          // not IPv6, undecodable, refused by the session layer
  // Larger than the session's path MTU allows, sent anyway (after a Packet
  // Too Big) because that Packet Too Big names an MTU under IPv6's 1280,
  // which senders ignore (RFC 8201 §4): the underlay fragments it.
  uint64_t oversizeSent = 0;
};

// What the node looks like now.
struct MeshSnapshot {
  identity::NodeAddr self;
  std::vector<link::PeerInfo> peers;
  identity::NodeAddr root;
  std::optional<identity::NodeAddr> parent;  // nullopt while we are root
  stp::Coordinates coords;                   // self → root
  size_t depth() const { return coords.depth(); }
};

// Where a datagram for a destination goes next (spec 03 §6).
struct MeshRoute {
  routing::NextHopKind kind = routing::NextHopKind::COORDS_REQUIRED;
  routing::NextHopRule rule = routing::NextHopRule::NONE;
  std::optional<identity::NodeAddr> peer;  // set iff kind == PEER
};

class MeshNode final : private link::LinkIo, private routing::MeshView {
 public:
  // ctx, clock, wall, rng and io are borrowed and must outlive the node;
  // epoch is this process's 8 random startup bytes (spec 02 §5). config is
  // shared, immutable (the components keep references into it): one per
  // daemon, one for every node of a simulation.
  MeshNode(const crypto::Secp256k1Context& ctx, crypto::SecretKey localKey, noise::Epoch epoch,
           std::shared_ptr<const MeshConfig> config, const link::Clock& clock,
           const WallClock& wall, crypto::Rng& rng, MeshIo& io);
  MeshNode(const MeshNode&) = delete;
  MeshNode& operator=(const MeshNode&) = delete;
  ~MeshNode() override = default;

  // Static peers (see LinkManager::addStaticPeer / setStaticPeerAddrs /
  // removePeer).
  bool addStaticPeer(const crypto::PublicKey& key, std::vector<link::TransportAddr> addrs);
  bool setStaticPeerAddrs(const crypto::PublicKey& key, std::vector<link::TransportAddr> addrs);
  bool removePeer(const identity::NodeAddr& peer);
  // A peer dialed once (see LinkManager::addEphemeralPeer; fipsctl connect).
  bool addEphemeralPeer(const crypto::PublicKey& key, const link::TransportAddr& addr);
  // Outbound handshakes in progress.
  size_t pendingHandshakes() const { return links_.pendingHandshakes(); }
  // The link engine's handshakes and redial state (fipsctl show connections|routing).
  std::vector<link::HandshakeInfo> handshakes() const { return links_.handshakes(); }
  std::vector<link::RetryInfo> retries() const { return links_.retries(); }
  // Whether a dial to `peer` is under way (LinkManager::dialState).
  link::DialState dialState(const identity::NodeAddr& peer) const { return links_.dialState(peer); }
  // The receive entry point for every datagram from a transport.
  void onDatagram(const link::TransportAddr& from, std::span<const uint8_t> packet);
  // Timers of the link engine and every component; call about once a second.
  void tick();
  // Disconnect(Shutdown) to every peer; the node is inert afterwards.
  void shutdown();

  // Coordinate discovery for target (spec 03 §5.3): its key must be in the
  // identity cache (learnIdentity) for the answer's proof to verify. The
  // answer arrives as MeshIo::onLookupResolved / onLookupFailed. fanout,
  // when given, receives how many peers the request went to (0 unless
  // STARTED).
  lookup::LookupStart lookup(const identity::NodeAddr& target, size_t* fanout = nullptr);
  // Identity cache writers: DNS, configured peers, native API (spec 03 §7).
  void learnIdentity(const crypto::PublicKey& key);
  // Coordinate cache writer for transit session setup (spec 03 §7; #6).
  void learnCoords(const identity::NodeAddr& addr, stp::Coordinates coords);
  const stp::Coordinates* cachedCoords(const identity::NodeAddr& addr) const;
  // Next hop toward dest from our tree, filters and coordinate cache.
  MeshRoute route(const identity::NodeAddr& dest);

  // FSP sessions (spec 04; mesh-node-session.cpp). Sends Data to dest on
  // the given ports, starting a session or a lookup as needed.
  fsp::SendOutcome sendData(const identity::NodeAddr& dest, uint16_t srcPort, uint16_t dstPort,
                            std::span<const uint8_t> payload);
  // fipsctl probe: opens a session to dest without data (false if one
  // exists or dest's identity is unknown), and sends one CoordsWarmup on an
  // established one so the remote's session MMP reports (an RTT sample).
  bool openSession(const identity::NodeAddr& dest);
  bool sendSessionWarmup(const identity::NodeAddr& dest);
  // fipsctl probe's teardown of the session it opened at createdMs
  // (fsp::SessionTable::closeProbeSession).
  fsp::ProbeTeardown closeProbeSession(const identity::NodeAddr& dest, uint64_t createdMs);
  // Minimum MTU of the operational transports (bytes, whole FMP packet):
  // the path_mtu we originate datagrams with and the IPv6 effective MTU
  // (mtu − 77). 1280 until set.
  void setTransportMtu(uint16_t mtu);
  uint16_t transportMtu() const { return transportMtu_; }
  const fsp::SessionTable& sessions() const { return sessions_; }
  const routing::ForwardingCounters& forwarding() const { return forwarder_.counters(); }

  // IPv6 adapter (spec 05; mesh-node-tun.cpp). The TUN side is injected
  // (nullptr: no TUN; Data on port 256 is dropped). tun must outlive the node.
  void attachTun(TunIo* tun) { tun_ = tun; }
  // One packet read from the TUN (local, unvalidated; MSS clamping may
  // rewrite it in place).
  void onTunPacket(std::span<uint8_t> packet);
  // Our FIPS IPv6 address (fd00::/8).
  ipv6::Ipv6Addr ipv6Address() const;
  const Ipv6Counters& ipv6Counters() const;

  const identity::NodeAddr& self() const { return links_.localAddr(); }
  MeshSnapshot snapshot() const;
  const stp::TreeState& tree() const { return tree_; }
  const bloom::BloomState& bloom() const { return bloom_; }
  const lookup::LookupState& lookups() const { return lookup_; }
  const MeshConfig& config() const { return *config_; }
  const routing::CoordCache& coordCache() const { return coords_; }
  const routing::IdentityCache& identities() const { return ids_; }
  const link::LinkCounters& linkCounters() const { return links_.counters(); }
  const MeshCounters& counters() const { return counters_; }

  // Link path MTU (mesh-node-pmtu.cpp, RFC 8899). The kernel's path MTU to
  // a transport address (UDP payload bytes), reported by a worker after a
  // send above it failed: lowers the estimate of the link(s) there at once.
  void onKernelPathMtu(const link::TransportAddr& to, uint16_t mtu);
  // The link's path MTU estimate (bytes, whole FMP packet), at most the
  // transport MTU; the transport MTU for a peer that is not probed.
  uint16_t linkMtuOf(const identity::NodeAddr& peer) const;
  struct PmtuCounters {
    uint64_t probesSent = 0;
    uint64_t probesAcked = 0;
    uint64_t kernelReports = 0;  // kernel path MTUs from the workers
    uint64_t changes = 0;        // estimate changes over all links
  };
  const PmtuCounters& pmtuCounters() const { return pmtuCounters_; }

 private:
  // link::LinkIo (called inside the engine: queue sends, never call it).
  void sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) override;
  void onLinkUp(const link::PeerInfo& peer) override;
  void onLinkSwapped(const link::PeerInfo& peer) override { io_.onLinkSwapped(peer); }
  void onLinkDown(const link::PeerInfo& peer, link::LinkDownReason reason) override;
  void onLinkMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                     std::span<const uint8_t> body) override;
  void onLinkMeasured(const identity::NodeAddr& peer) override;

  // routing::MeshView (mesh-view.cpp); peers() is valid after refreshView().
  const identity::NodeAddr& selfAddr() const override { return links_.localAddr(); }
  const stp::Coordinates& selfCoords() const override { return tree_.coordinates(); }
  std::span<const routing::PeerView> peers() const override { return peerViews_; }
  bool mayReach(const routing::PeerView& peer, const identity::NodeAddr& dest) const override;
  void refreshView();
  bool isTreePeer(const identity::NodeAddr& peer) const { return tree_.isTreePeer(peer); }

  stp::TreeNow now() const;
  // Queues the tree's announces and applies its flags to bloom, caches and
  // lookup; reports a changed position. from: the announcing peer, for
  // outputs of onTreeAnnounce().
  void apply(const stp::TreeOutput& out, const identity::NodeAddr* from = nullptr);
  // Queues lookup sends and reports answers.
  void apply(lookup::LookupActions& actions);
  void onLookupMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                       std::span<const uint8_t> body);
  void queueFilters();
  void queue(const identity::NodeAddr& peer, fmp::LinkMessageType type,
             std::span<const uint8_t> body);
  // Sends what the components queued (outside any engine call).
  void flush();

  // mesh-node-session.cpp: inbound SessionDatagrams and the session
  // table's actions (which may add more actions to the list).
  void onSessionDatagram(const identity::NodeAddr& peer, std::span<const uint8_t> body);
  void apply(fsp::SessionActions& actions);
  void sendFsp(const fsp::SendFsp& send, fsp::SessionActions& more);
  void startSessionLookup(const identity::NodeAddr& dest, fsp::SessionActions& more);
  void lookupFinished(const identity::NodeAddr& target, bool found);

  // mesh-node-tun.cpp
  void deliverIpv6(const fsp::DeliverData& data);
  void dropPending(const fsp::DropPending& dropped);
  void writeIcmpError(std::optional<std::vector<uint8_t>> packet);

  // mesh-node-pmtu.cpp
  void startPathMtu(const identity::NodeAddr& peer);
  void pollPathMtu(const identity::NodeAddr& peer);
  void tickPathMtu();
  bool onProbeAnswer(const identity::NodeAddr& peer, std::span<const uint8_t> body);
  void noteMtuChange(const identity::NodeAddr& peer, uint16_t before, uint16_t after);
  uint16_t effectiveMtu() const;
  uint16_t maxMssFor(const identity::NodeAddr& peer) const;

  // The IPv6 adapter's state, made on its first use: a node that never
  // sees an IPv6 packet (every simulated one) holds none of it.
  struct Ipv6State {
    ipv6::Ipv6Addr addr{};  // ours
    ipv6::IcmpRateLimiter icmpLimiter;
    Ipv6Counters counters;
  };
  Ipv6State& ipv6State();

  struct Outgoing {
    identity::NodeAddr peer;
    fmp::LinkMessageType type;
    std::vector<uint8_t> body;
  };

  std::shared_ptr<const MeshConfig> config_;  // never null
  const link::Clock& clock_;
  const WallClock& wall_;
  crypto::Rng& rng_;
  MeshIo& io_;
  // The link engine first: it owns the key pair (and suite) the tree,
  // lookup and session components sign and handshake with. Its callbacks
  // (LinkIo) come only from its entry points, never while it is built.
  link::LinkManager links_;
  stp::TreeState tree_;
  bloom::BloomState bloom_;
  lookup::LookupState lookup_;
  routing::CoordCache coords_;
  routing::IdentityCache ids_;
  std::vector<routing::PeerView> peerViews_;
  // Measured link costs (spec 02 §9.3) for parent selection and next hops:
  // refreshed every tick and when a link gets its first RTT (not read from
  // the engine inside its callbacks).
  stp::LinkCosts costs_;
  bool linkMeasured_ = false;
  std::vector<Outgoing> outbox_;
  MeshCounters counters_;
  fsp::SessionTable sessions_;
  routing::Forwarder forwarder_;
  // Destinations whose StartLookup still owes the session table an answer.
  std::unordered_set<identity::NodeAddr, fsp::NodeAddrHash> sessionLookups_;
  uint16_t transportMtu_ = ipv6::MIN_IPV6_MTU;
  TunIo* tun_ = nullptr;
  std::unique_ptr<Ipv6State> ipv6_;  // see ipv6State()
  // Path MTU state per active link (config_->pmtuProbing), and the probes
  // queued for flush() (sent through MeshIo::sendProbe).
  std::unordered_map<identity::NodeAddr, link::LinkPmtu, fsp::NodeAddrHash> pmtu_;
  std::vector<Outgoing> probes_;
  bool sendingProbe_ = false;  // flush() is sending a probe: sendDatagram → sendProbe
  uint64_t nextProbeId_ = 0;
  PmtuCounters pmtuCounters_;
};

}  // namespace fips::router::mesh
