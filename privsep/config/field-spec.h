// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the vocabulary of the declarative field
// tables (config-fields.h). One table per config struct lists its YAML keys in
// print order, each with the member it fills, a doc string, and optionally a
// check, a required flag, a hex or secret presentation. The parser, the
// validator, the effective-config writer (and through it the config diff
// and docs/reference/config.md) walk these tables with generic loops, so a
// key is spelled once. Defaults are the member initializers of the struct
// the table describes (node-config.h, transport-config.h, config.h).
// Compile-time only; runs in the fips supervisor and fipsctl.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace fips::privsep::config {

// A value check: the reason `value` is refused, or nullopt when it is fine.
// The reason is appended to "FILE:LINE: key.path: ".
template <typename T>
using Check = std::optional<std::string> (*)(const T& value);

// How the writer shows a secret field instead of its value: nullopt prints
// the value, "" prints nothing, any other text prints "# text".
template <typename T>
using Hide = std::optional<std::string_view> (*)(const T& value);

// The optional parts of a field.
template <typename T>
struct FieldOptions {
  Check<T> check = nullptr;
  Hide<T> hide = nullptr;
  // A comment the writer prints above the key when it prints no doc string.
  std::string_view note = {};
  // A second YAML name the parser also reads (after the key, so it wins).
  std::string_view alias = {};
  bool required = false;  // "is required" when absent from its map
  bool hex = false;       // printed as 0x%04x
};

// One YAML key of struct S, stored in member `member` of type T.
template <typename S, typename T>
struct Field {
  std::string_view key;
  T S::*member;
  std::string_view doc;
  FieldOptions<T> options = {};
};

// How a nested map reads.
enum class SectionMode {
  MERGE,    // keys absent from the map keep their current values
  REPLACE,  // a present map starts from the defaults (spec 08 §3.0)
};

// A nested map `key` of struct S, stored in member `member` (a C) and
// described by `fields` (C's table).
template <typename S, typename C, typename Table>
struct Section {
  std::string_view key;
  C S::*member;
  const Table* fields;
  std::string_view doc;
  SectionMode mode = SectionMode::MERGE;
  bool nullIsDefault = false;  // `key: ~` and null values inside mean "default"
};

// A list of maps `key` of struct S (peers, addresses, port forwards).
template <typename S, typename T, typename Table>
struct ListOf {
  std::string_view key;
  std::vector<T> S::*member;
  const Table* fields;
  std::string_view doc;
};

// From here on in a table, null values mean "default" (serde's Option
// fields of the reference). Only the parser acts on it.
struct NullIsDefaultFromHere {};

template <typename S, typename T>
constexpr Field<S, T> field(std::string_view key, T S::*member, std::string_view doc,
                            FieldOptions<T> options = {}) {
  return {key, member, doc, options};
}

template <typename S, typename C, typename Table>
constexpr Section<S, C, Table> section(std::string_view key, C S::*member, const Table& fields,
                                       std::string_view doc, SectionMode mode = SectionMode::MERGE,
                                       bool nullIsDefault = false) {
  return {key, member, &fields, doc, mode, nullIsDefault};
}

template <typename S, typename T, typename Table>
constexpr ListOf<S, T, Table> listOf(std::string_view key, std::vector<T> S::*member,
                                     const Table& fields, std::string_view doc) {
  return {key, member, &fields, doc};
}

template <typename E>
inline constexpr bool IS_FIELD = false;
template <typename S, typename T>
inline constexpr bool IS_FIELD<Field<S, T>> = true;

template <typename E>
inline constexpr bool IS_SECTION = false;
template <typename S, typename C, typename Table>
inline constexpr bool IS_SECTION<Section<S, C, Table>> = true;

template <typename E>
inline constexpr bool IS_LIST = false;
template <typename S, typename T, typename Table>
inline constexpr bool IS_LIST<ListOf<S, T, Table>> = true;

// Calls `fn(entry)` for each entry of `table`, in order.
template <typename Table, typename Fn>
constexpr void forEachEntry(const Table& table, Fn&& fn) {
  std::apply([&](const auto&... entry) { (fn(entry), ...); }, table);
}

// Whether `key` names a nested map of `table`.
template <typename Table>
constexpr bool isSectionKey(const Table& table, std::string_view key) {
  bool found = false;
  forEachEntry(table, [&](const auto& entry) {
    if constexpr (IS_SECTION<std::decay_t<decltype(entry)>>) found = found || entry.key == key;
  });
  return found;
}

}  // namespace fips::privsep::config
