// SPDX-License-Identifier: MIT
// Result<T, E>: a value or the typed reason it could not be produced. The
// return type of every decoder whose input is untrusted (FMP, FSP, lookup,
// routing signals, DNS, keys): a bad input is a value to count and drop,
// never a throw. Used by every process.
#pragma once

#include <utility>
#include <variant>

namespace fips {

// Either a T or the error E that stopped it. T and E must be distinct types.
// Reading value() of a failed result (or error() of a good one) is a
// programming bug and throws std::bad_variant_access.
template <typename T, typename E>
class [[nodiscard]] Result {
 public:
  // Implicit on purpose, so a decoder can `return value;` or `return error;`.
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Result(E error) : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  const T& value() const { return std::get<0>(v_); }
  T& value() { return std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  T* operator->() { return &std::get<0>(v_); }
  const E& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, E> v_;
};

}  // namespace fips
