// SPDX-License-Identifier: MIT
// NIP-19 npub/nsec encodings of keys and the secret-key parser shared by the
// config loader, the key-file reader and fipsctl (spec 01 §2). Runs in the
// supervisor, the router and fipsctl; decoder input is untrusted and never
// throws.
#pragma once

#include <string>
#include <string_view>

#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/identity-error.h"
#include "lib/identity/secret-string.h"

namespace fips::identity {

// "npub1" + bech32 (BIP-173 checksum, lowercase) of the 32 x-only bytes.
std::string encodeNpub(const crypto::PublicKey& key);

// Decodes an npub (bech32 or bech32m checksum, all-lower or all-upper case).
// Errors, checked in this order: the bech32 ones (see bech32Decode),
// WRONG_HRP (not "npub"), WRONG_LENGTH (not 32 bytes), NOT_ON_CURVE.
IdentityResult<crypto::PublicKey> decodeNpub(std::string_view text);

// Whether `text` starts "npub1" in either case (bech32 is all-lower or
// all-upper): meant as an npub, so a failed decode is a bad npub.
bool hasNpubPrefix(std::string_view text);

// "nsec1" + bech32 of the 32 secret bytes, in a buffer wiped on destruction.
SecretString encodeNsec(const crypto::SecretKey& key);

// Decodes an nsec. Errors: the bech32 ones, WRONG_HRP, WRONG_LENGTH,
// SCALAR_OUT_OF_RANGE. The decoded bytes are wiped on every path. ctx
// derives the public key.
IdentityResult<crypto::SecretKey> decodeNsec(const crypto::Secp256k1Context& ctx,
                                             std::string_view text);

// The reference's secret-key rule (spec 01 §2): text starting with "nsec1"
// (case-sensitive, as in the reference) is decoded as an nsec; anything else
// as hex of any case, where BAD_HEX (odd length, non-hex character) is
// checked before WRONG_LENGTH (not 64 characters), then SCALAR_OUT_OF_RANGE;
// hex errors say an nsec or 64 hex characters were expected. Text starting
// with "npub1" is WRONG_HRP (a public key given for a secret one). No
// whitespace is trimmed here. ctx derives the public key.
IdentityResult<crypto::SecretKey> parseSecretKey(const crypto::Secp256k1Context& ctx,
                                                 std::string_view text);

// "npub1" + first 4 + "..." + last 4 data characters, for logs.
std::string shortNpub(const crypto::PublicKey& key);

}  // namespace fips::identity
