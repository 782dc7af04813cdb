// SPDX-License-Identifier: MIT
// How an operator names a peer to the control service (connect,
// disconnect, probe, stats history): a name of the router's host map (a
// hosts-file name or a configured peer alias, any case; the hosts file wins
// on a clash, as for `<name>.fips`), else an npub (any case). Shared by the
// data-plane thread (commands) and the control thread (JSON probe_start and
// stats queries), both reading one HostMap. Names are untrusted text from a
// local client; nothing here throws.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "lib/crypto/secp256k1-keys.h"
#include "router/dns/host-map.h"

namespace fips::router::dns {

// Why a peer name did not resolve.
struct PeerNameError {
  // True when the text starts "npub1" (a bad npub: `text` is the decoder's
  // reason); false when it is nothing known (`text` is the whole line
  // "unknown peer '<name>': not an npub, a hosts-file name or a configured
  // peer alias", fipsctl's wording, or, for text in a secret key's form,
  // identity::secretKeyNotPeer's line, which never repeats it).
  bool badNpub = false;
  std::string text;
};

// The key `peer` names in `names`, else the npub it is, else why not.
std::variant<crypto::PublicKey, PeerNameError> resolvePeerName(std::string_view peer,
                                                               const HostMap& names);

}  // namespace fips::router::dns
