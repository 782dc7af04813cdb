// SPDX-License-Identifier: MIT
// Peer names (see peer-name.h).
#include "router/dns/peer-name.h"

#include <fmt/format.h>

#include "lib/identity/nip19.h"
#include "lib/identity/secret-text.h"

namespace fips::router::dns {

std::variant<crypto::PublicKey, PeerNameError> resolvePeerName(std::string_view peer,
                                                               const HostMap& names) {
  if (const auto* key = names.find(peer)) return *key;
  auto key = identity::decodeNpub(peer);
  if (!key.ok()) {
    if (auto secret = identity::secretKeyNotPeer(peer)) return PeerNameError{false, *secret};
    if (identity::hasNpubPrefix(peer)) return PeerNameError{true, key.error().message};
    return PeerNameError{
        false,
        fmt::format("unknown peer '{}': not an npub, a hosts-file name or a configured peer alias",
                    peer)};
  }
  return key.value();
}

}  // namespace fips::router::dns
