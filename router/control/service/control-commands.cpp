// SPDX-License-Identifier: MIT
// connect / disconnect (see control-commands.h). Error texts follow the
// reference's where it has one (src/node/mod.rs NodeError, api_disconnect).
#include "router/control/service/control-commands.h"

#include <variant>

#include <fmt/format.h>

#include "privsep/host-name.h"
#include "privsep/socket-address.h"

#include "lib/identity/nip19.h"
#include "router/control/probe/probe.h"
#include "router/dns/peer-name.h"
#include "router/transports/static-peers.h"

namespace fips::router {

namespace {

std::optional<link::PeerInfo> activePeer(const mesh::MeshNode& links,
                                         const identity::NodeAddr& addr) {
  for (const auto& peer : links.snapshot().peers) {
    if (peer.addr == addr) return peer;
  }
  return std::nullopt;
}

// The key `peer` names (dns::resolvePeerName), or the error line.
std::variant<crypto::PublicKey, std::string> resolvePeer(const std::string& peer,
                                                         const dns::HostMap& hosts) {
  auto key = dns::resolvePeerName(peer, hosts);
  if (const auto* error = std::get_if<dns::PeerNameError>(&key)) {
    if (!error->badNpub) return error->text;
    return fmt::format("invalid peer npub '{}': {}", peer, error->text);
  }
  return std::get<crypto::PublicKey>(key);
}

// What the dial to a peer that is not up is doing ("handshake",
// "retry_backoff", "resolving"), or "" when there is none.
std::string dialState(const mesh::MeshNode& links, const PeerResolver* resolver,
                      const identity::NodeAddr& peer) {
  switch (links.dialState(peer)) {
    case link::DialState::HANDSHAKE:
      return "handshake";
    case link::DialState::WAITING:
      return "retry_backoff";
    case link::DialState::NONE:
      break;
  }
  if (resolver != nullptr && resolver->awaitingFirstAnswer(peer)) return "resolving";
  return "";
}

void connect(schema::ControlCommand::Connect::Reader c, mesh::MeshNode& links,
             const TransportSet& transports, PeerResolver* resolver, const dns::HostMap& hosts,
             schema::CommandResult::Builder result) {
  const std::string address = c.getAddress();
  const std::string transport = c.getTransport();
  auto key = resolvePeer(c.getNpub(), hosts);
  if (auto* error = std::get_if<std::string>(&key)) return result.setError(*error);
  const auto& peerKey = std::get<crypto::PublicKey>(key);
  result.setNpub(identity::encodeNpub(peerKey));
  const auto peerAddr = identity::NodeAddr::fromPublicKey(peerKey);
  if (peerAddr == links.self()) return result.setError("cannot connect to this node");
  const auto transportId = transports.boundId(transport);
  if (!transportId) {
    return result.setError(fmt::format("no transport available for type: {}", transport));
  }
  // A numeric ip:port, or a host name the UDP worker looks up (udp only).
  const auto parsed = privsep::parseSocketAddress(address);
  std::optional<link::TransportAddr> to;
  std::optional<privsep::HostPort> host;
  if (parsed) {
    to = toTransportAddr(*transportId, *parsed);
    if (!to || to->isFipsMeshAddress()) {
      return result.setError(
          fmt::format("'{}' is a FIPS mesh address (fd00::/8), not a reachable {} endpoint",
                      address, transport));
    }
  } else if (host = privsep::parseHostPort(address); !host) {
    return result.setError(
        fmt::format("address '{}' is neither ip:port nor host:port (port 1-65535)", address));
  } else if (transport != "udp" && !transport.starts_with("udp/")) {
    return result.setError(
        fmt::format("host names are looked up for udp only; give {} a numeric ip:port", transport));
  } else if (resolver == nullptr) {
    return result.setError("host names cannot be looked up now (node starting)");
  }
  if (auto active = activePeer(links, peerAddr)) {
    if (to && active->current == *to) {
      result.setOk();  // already on this path: nothing to do, and the client says so
      result.setAlreadyConnected(true);
      return;
    }
    return result.setError(fmt::format(
        "peer already connected via {}: nothing was changed (this build does not try {} as an "
        "alternate path; disconnect the peer first to move it there)",
        link::toText(active->current), address));
  }
  // A dial already under way is left alone (the reference's "connection
  // already in progress"): ok, and the client says so.
  if (const auto state = dialState(links, resolver, peerAddr); !state.empty()) {
    result.setOk();
    result.setAlreadyConnecting(true);
    result.setDialState(state);
    return;
  }
  if (host) {
    // Dialed once the UDP worker answers (next tick); a failed lookup is logged.
    resolver->addEphemeral(peerKey, c.getNpub().cStr(), {*transportId, std::move(*host)});
    result.setOk();
    result.setDialState("resolving");
    return;
  }
  if (!links.addEphemeralPeer(peerKey, *to)) {
    return result.setError(fmt::format("cannot dial {} at {}", c.getNpub().cStr(), address));
  }
  result.setOk();
}

void disconnect(schema::ControlCommand::Disconnect::Reader d, mesh::MeshNode& links,
                PeerResolver* resolver, const dns::HostMap& hosts,
                schema::CommandResult::Builder result) {
  const std::string peer = d.getNpub();
  auto key = resolvePeer(peer, hosts);
  if (auto* error = std::get_if<std::string>(&key)) return result.setError(*error);
  result.setNpub(identity::encodeNpub(std::get<crypto::PublicKey>(key)));
  const auto addr = identity::NodeAddr::fromPublicKey(std::get<crypto::PublicKey>(key));
  const auto state = dialState(links, resolver, addr);
  if (!activePeer(links, addr) && state.empty()) {
    return result.setError(fmt::format("peer not found: {}", peer));
  }
  // The engine drops the link and cancels the dial and its retries (a
  // configured peer is parked, see LinkManager::removePeer); the resolver
  // forgets it, so a later answer for its host name does not dial it again.
  links.removePeer(addr);
  if (resolver != nullptr) resolver->remove(addr);
  result.setOk();
  if (!state.empty()) {
    result.setDialCancelled(true);
    result.setDialState(state);
  }
}

}  // namespace

void runControlCommand(schema::ControlCommand::Reader command, mesh::MeshNode& links,
                       const TransportSet& transports, PeerResolver* resolver,
                       const dns::HostMap& hosts,
                       const std::map<identity::NodeAddr, std::string>& names, uint32_t tickMs,
                       schema::ControlReply::Builder reply) {
  switch (command.which()) {
    case schema::ControlCommand::CONNECT:
      connect(command.getConnect(), links, transports, resolver, hosts, reply.initResult());
      break;
    case schema::ControlCommand::DISCONNECT:
      disconnect(command.getDisconnect(), links, resolver, hosts, reply.initResult());
      break;
    case schema::ControlCommand::PROBE: {
      // The target as connect and disconnect take it (an npub, a hosts-file
      // name or a configured alias); the report names it by its npub.
      auto probe = command.getProbe();
      auto key = resolvePeer(probe.getNpub(), hosts);
      if (auto* error = std::get_if<std::string>(&key)) {
        reply.initResult().setError(*error);
        break;
      }
      const ProbeCall call{.npub = identity::encodeNpub(std::get<crypto::PublicKey>(key)),
                           .startLookup = probe.getStartLookup(),
                           .ownedSessionMs = probe.getOwnedSessionMs(),
                           .teardown = probe.getTeardown(),
                           .tickMs = tickMs};
      runProbe(call, links, names, reply.initResult(), reply.initProbe());
      break;
    }
  }
}

}  // namespace fips::router
