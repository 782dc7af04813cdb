// SPDX-License-Identifier: MIT
// Bech32 (BIP-173) encoding and bech32/bech32m (BIP-350) decoding of byte
// payloads, the container of NIP-19 npub/nsec. Runs in any process; decoder
// input is untrusted and never throws.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/identity/identity-error.h"

namespace fips::identity {

// Which checksum constant a decoded string used.
enum class Bech32Variant { BECH32, BECH32M };

// A decoded bech32 string: lowercase HRP and the 8-bit payload.
struct Bech32Decoded {
  std::string hrp;
  std::vector<uint8_t> data;
  Bech32Variant variant;
};

// Encodes `data` (8-bit bytes, regrouped to 5 bits with zero padding) under
// `hrp`, lowercase, with the original BIP-173 bech32 checksum (what NIP-19
// requires) unless `variant` asks for bech32m. `hrp` must be
// lowercase ASCII 33..126, 1..83 characters (a programming error otherwise).
// The result is built in one allocation, so a caller holding a secret
// payload can wipe it (see SecretString).
std::string bech32Encode(std::string_view hrp, std::span<const uint8_t> data,
                         Bech32Variant variant = Bech32Variant::BECH32);

// Decodes a bech32 string the way the reference (bech32 crate 0.11
// `decode`) does: the checksum may be bech32 or bech32m, the string may be
// all-lowercase or all-uppercase (mixed case is rejected), the HRP is 1..83
// printable ASCII characters, and leftover padding bits are dropped without
// a check. There is no 90-character limit, as in the reference.
// Errors: INVALID_CHARACTER, MIXED_CASE, MALFORMED, WRONG_LENGTH (data part
// shorter than the 6-character checksum), BAD_CHECKSUM.
// A caller decoding a secret must wipe the returned data.
IdentityResult<Bech32Decoded> bech32Decode(std::string_view text);

}  // namespace fips::identity
