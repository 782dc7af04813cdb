// SPDX-License-Identifier: MIT
// connect / disconnect (see control-commands.h). Error texts follow the
// reference's where it has one (src/node/mod.rs NodeError, api_disconnect).
#include "router/daemon/control-commands.h"

#include <algorithm>
#include <variant>

#include <fmt/format.h>

#include "privsep/socket-address.h"

#include "router/daemon/static-peers.h"
#include "router/identity/nip19.h"

namespace fips::router {

namespace {

std::optional<link::PeerInfo> activePeer(const mesh::MeshNode& links,
                                         const identity::NodeAddr& addr) {
  for (const auto& peer : links.snapshot().peers) {
    if (peer.addr == addr) return peer;
  }
  return std::nullopt;
}

void connect(schema::ControlCommand::Connect::Reader c, mesh::MeshNode& links,
             const TransportSet& transports, schema::CommandResult::Builder result) {
  const std::string npub = c.getNpub();
  const std::string address = c.getAddress();
  const std::string transport = c.getTransport();
  auto key = identity::decodeNpub(npub);
  if (auto* error = std::get_if<identity::IdentityError>(&key)) {
    return result.setError(fmt::format("invalid peer npub '{}': {}", npub, error->message));
  }
  const auto& peerKey = std::get<identity::PublicKey>(key);
  const auto peerAddr = identity::NodeAddr::fromPublicKey(peerKey);
  if (peerAddr == links.self()) return result.setError("cannot connect to this node");
  const auto transportId = transports.boundId(transport);
  if (!transportId) {
    return result.setError(fmt::format("no transport available for type: {}", transport));
  }
  const auto parsed = privsep::parseSocketAddress(address);
  if (!parsed) {
    return result.setError(fmt::format(
        "address '{}' is not a numeric ip:port (hostnames are not resolved yet)", address));
  }
  const auto to = toTransportAddr(*transportId, *parsed);
  if (!to || to->isFipsMeshAddress()) {
    return result.setError(fmt::format(
        "'{}' is a FIPS mesh address (fd00::/8), not a reachable {} endpoint", address, transport));
  }
  if (auto active = activePeer(links, peerAddr)) {
    if (active->current == *to) {
      result.setOk();  // already on this path: a successful no-op
      return;
    }
    return result.setError(
        fmt::format("peer already connected via {}; trying an alternate "
                    "path is not supported yet",
                    link::toText(active->current)));
  }
  // False also when it is already dialed (a static peer): not an error.
  links.addEphemeralPeer(peerKey, *to);
  result.setOk();
}

void disconnect(schema::ControlCommand::Disconnect::Reader d, mesh::MeshNode& links,
                schema::CommandResult::Builder result) {
  const std::string npub = d.getNpub();
  auto key = identity::decodeNpub(npub);
  if (auto* error = std::get_if<identity::IdentityError>(&key)) {
    return result.setError(fmt::format("invalid npub '{}': {}", npub, error->message));
  }
  const auto addr = identity::NodeAddr::fromPublicKey(std::get<identity::PublicKey>(key));
  if (!activePeer(links, addr)) return result.setError(fmt::format("peer not found: {}", npub));
  links.removePeer(addr);
  result.setOk();
}

}  // namespace

void runControlCommand(schema::ControlCommand::Reader command, mesh::MeshNode& links,
                       const TransportSet& transports, schema::CommandResult::Builder result) {
  switch (command.which()) {
    case schema::ControlCommand::CONNECT:
      connect(command.getConnect(), links, transports, result);
      break;
    case schema::ControlCommand::DISCONNECT:
      disconnect(command.getDisconnect(), links, result);
      break;
  }
}

}  // namespace fips::router
