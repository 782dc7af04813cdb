// SPDX-License-Identifier: MIT
// Why an FSP codec rejected its input, and the tagged result every FSP
// decoder returns. Runs in fips-router; the inputs behind these errors are
// untrusted end-to-end messages, so each value is a drop reason, never a throw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <variant>

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

// Either a decoded T or the reason it was dropped. Reading value() of a failed
// result (or error() of a good one) is a programming bug and throws
// std::bad_variant_access.
template <typename T>
class [[nodiscard]] FspResult {
 public:
  FspResult(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  FspResult(FspError error) : v_(error) {}      // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(v_); }
  const T& value() const { return std::get<T>(v_); }
  const T* operator->() const { return &std::get<T>(v_); }
  FspError error() const { return std::get<FspError>(v_); }

 private:
  std::variant<T, FspError> v_;
};

}  // namespace fips::router::fsp
