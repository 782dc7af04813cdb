// SPDX-License-Identifier: MIT
// The node identity as the supervisor holds it between resolving it (key
// file or config) and handing the secret to the router. Runs in `fips`.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "lib/crypto/secret.h"

namespace fips::privsep::supervisor {

// The resolved identity: the secret goes only to fips-router; the address
// goes to fips-tun-helper.
struct NodeIdentity {
  crypto::Secret<32> secret;       // secp256k1 secret key
  std::string npub;                // NIP-19, for logs
  std::array<uint8_t, 16> ipv6{};  // fd00::/8 address (spec 01 §3.2)
};

}  // namespace fips::privsep::supervisor
