// SPDX-License-Identifier: MIT
// Why an FMP codec rejected its input, and the tagged result every FMP decoder
// returns. Runs in fips-router; the inputs behind these errors are untrusted
// frames from transport workers, so each value is a drop reason, never a throw.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/result.h"

namespace fips::router::fmp {

// Per-reason drop codes for FMP frames and link messages (STYLE 2.7).
enum class FmpError : uint8_t {
  SHORT,           // fewer bytes than the layout or a length field needs
  LONG,            // more bytes than an exact-size layout allows
  BAD_VERSION,     // FMP version nibble != 0, or TreeAnnounce version != 1
  BAD_PHASE,       // unknown phase, or not the phase the decoder expects
  BAD_LENGTH,      // payload_len disagrees with the frame length (spec 00 pitfall 9)
  BAD_FLAGS,       // non-zero flags in a handshake frame
  UNKNOWN_TYPE,    // link msg_type not in spec 02 §6
  BAD_COUNT,       // zero ancestry / coordinate count where >= 1 is required
  BAD_SIZE_CLASS,  // FilterAnnounce size_class other than 1
  BAD_HASH_COUNT,  // FilterAnnounce hash_count 0
};

// Number of FmpError values, for per-reason counter arrays.
constexpr size_t FMP_ERROR_COUNT = 10;
static_assert(static_cast<size_t>(FmpError::BAD_HASH_COUNT) + 1 == FMP_ERROR_COUNT);

// Stable lower-case name of an error, for logs and stats ("short", "bad_phase").
const char* toString(FmpError error);

// Either a decoded T or the reason it was dropped (lib/result.h).
template <typename T>
using FmpResult = Result<T, FmpError>;

}  // namespace fips::router::fmp
