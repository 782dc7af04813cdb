// SPDX-License-Identifier: MIT
// Why an FSP codec rejected its input, and the tagged result every FSP
// decoder returns. Runs in fips-router; the inputs behind these errors are
// untrusted end-to-end messages, so each value is a drop reason, never a throw.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/result.h"

namespace fips::router::fsp {

// Per-reason drop codes for FSP messages (STYLE 2.7).
enum class FspError : uint8_t {
  SHORT,              // fewer bytes than the layout or a length field needs
  LONG,               // bytes after the last field of an exact layout
  BAD_VERSION,        // version nibble != 0
  BAD_PHASE,          // not the phase the decoder expects (or unknown)
  BAD_FLAGS,          // non-zero flags byte in phases 1-3; U set on an encrypted message
  BAD_LENGTH,         // payload_len disagrees with the message length
  BAD_COUNT,          // coordinate count 0 where >= 1 is required
  BAD_HANDSHAKE_LEN,  // handshake_len is not the XK message size of the phase
  UNKNOWN_TYPE,       // session msg_type not in spec 04 §3.1
};

// Number of FspError values, for per-reason counter arrays.
constexpr size_t FSP_ERROR_COUNT = 9;
static_assert(static_cast<size_t>(FspError::UNKNOWN_TYPE) + 1 == FSP_ERROR_COUNT);

// Stable lower-case name of an error, for logs and stats ("short", "bad_count").
const char* toString(FspError error);

// Either a decoded T or the reason it was dropped (lib/result.h).
template <typename T>
using FspResult = Result<T, FspError>;

}  // namespace fips::router::fsp
