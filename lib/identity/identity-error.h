// SPDX-License-Identifier: MIT
// Typed errors for decoding identity material (bech32, NIP-19, hex, keys).
// Used by every process that parses keys: the supervisor (config, key file),
// fipsctl (command line) and the router (npubs from peers and config); the
// inputs are untrusted, so decoders return these instead of throwing.
#pragma once

#include <string>
#include <variant>

#include "lib/result.h"

namespace fips::identity {

// Which check a malformed key string failed (spec 01 §2).
enum class IdentityErrorKind {
  BAD_CHECKSUM,         // bech32 checksum valid under neither bech32 nor bech32m
  WRONG_HRP,            // decoded fine, but the HRP is not the one expected
  WRONG_LENGTH,         // payload is not 32 bytes, or too short to hold a checksum
  INVALID_CHARACTER,    // a character outside the bech32 or HRP alphabet
  MIXED_CASE,           // upper- and lowercase letters in one bech32 string
  MALFORMED,            // no '1' separator, empty or over-long HRP
  SCALAR_OUT_OF_RANGE,  // secret key is 0 or >= the curve order n
  NOT_ON_CURVE,         // x (or compressed point) is not on secp256k1
  BAD_HEX,              // odd length or a non-hex character
};

// A decoding failure: its kind and a one-line message naming the check.
struct IdentityError {
  IdentityErrorKind kind;
  std::string message;
};

// The value, or why it could not be decoded (lib/result.h).
template <typename T>
using IdentityResult = Result<T, IdentityError>;

}  // namespace fips::identity
