// SPDX-License-Identifier: MIT
// DecodeResult: a decoded value or the typed reason a decoder rejected its
// input, shared by the lookup and routing-signal codecs. Runs in fips-router;
// the errors describe untrusted peer input, so each is a drop reason, never a
// throw.
#pragma once

#include <utility>
#include <variant>

namespace fips::router::routing {

// Either a decoded T or the error E that made the decoder drop the input.
// Reading value() of a failed result (or error() of a good one) is a
// programming bug and throws std::bad_variant_access.
template <typename T, typename E>
class [[nodiscard]] DecodeResult {
 public:
  DecodeResult(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  DecodeResult(E error) : v_(error) {}             // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(v_); }
  const T& value() const { return std::get<T>(v_); }
  T& value() { return std::get<T>(v_); }
  const T* operator->() const { return &std::get<T>(v_); }
  E error() const { return std::get<E>(v_); }

 private:
  std::variant<T, E> v_;
};

}  // namespace fips::router::routing
