// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the generic parse loop over a field
// table (field-spec.h). Each entry reads its key with MapReader, so every
// key a table lists is known to the unknown-key check and its suggestions.
// Runs in the fips supervisor and fipsctl on operator-owned input; bad
// values become messages, never exceptions.
#pragma once

#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "privsep/config/enum-names.h"
#include "privsep/config/field-spec.h"
#include "privsep/config/yaml-reader.h"

namespace fips::privsep::config {

// Reads the list of maps under `key` with `parseItem(reader, item)` for each.
template <typename T, typename Parse>
void parseList(MapReader& parent, std::string_view key, std::vector<T>& out, Parse parseItem) {
  std::optional<YAML::Node> node = parent.take(key);
  if (!node || node->IsNull()) return;
  ParseContext& ctx = parent.context();
  const std::string path = parent.pathOf(key);
  const int line = parent.lineOf(key);
  if (!node->IsSequence()) {
    ctx.error(line, path, "expected a list, got " + describe(*node));
    return;
  }
  std::size_t index = 0;
  for (auto it = node->begin(); it != node->end(); ++it, ++index) {
    const std::string itemPath = fmt::format("{}[{}]", path, index);
    const int itemLine = nodeLine(*it, line);
    if (!ctx.admitListItem()) {
      ctx.error(
          itemLine, itemPath,
          fmt::format("the file holds more than {} list entries", ParseContext::MAX_LIST_ITEMS));
      return;
    }
    ctx.record(itemPath, itemLine);
    if (!it->IsMap()) {
      ctx.error(itemLine, itemPath, "expected a map, got " + describe(*it));
      continue;
    }
    MapReader item(ctx, *it, itemPath, itemLine);
    T value;
    parseItem(item, value);
    item.finish();
    out.push_back(std::move(value));
  }
}

template <typename T>
void readValue(MapReader& r, std::string_view key, T& out) {
  if constexpr (std::is_enum_v<T>) {
    r.readEnum(key, out, ENUM_NAMES<T>);
  } else {
    r.read(key, out);
  }
}

// Reads every key `table` lists from `r` into `out`: first "is required" for
// each required key that is absent, then the values in table order.
template <typename S, typename Table>
void readFields(MapReader& r, S& out, const Table& table) {
  forEachEntry(table, [&](const auto& entry) {
    if constexpr (IS_FIELD<std::decay_t<decltype(entry)>>) {
      if (entry.options.required && !r.has(entry.key)) {
        r.context().error(r.line(), r.pathOf(entry.key), "is required");
      }
    }
  });
  forEachEntry(table, [&](const auto& entry) {
    using E = std::decay_t<decltype(entry)>;
    if constexpr (std::is_same_v<E, NullIsDefaultFromHere>) {
      r.acceptNullAsDefault();
    } else if constexpr (IS_FIELD<E>) {
      readValue(r, entry.key, out.*entry.member);
      if (!entry.options.alias.empty()) readValue(r, entry.options.alias, out.*entry.member);
    } else if constexpr (IS_SECTION<E>) {
      r.section(entry.key, [&](MapReader& child) {
        if (entry.nullIsDefault) child.acceptNullAsDefault();
        if (entry.mode == SectionMode::REPLACE) {
          std::decay_t<decltype(out.*entry.member)> fresh;
          readFields(child, fresh, *entry.fields);
          out.*entry.member = std::move(fresh);
        } else {
          readFields(child, out.*entry.member, *entry.fields);
        }
      });
    } else if constexpr (IS_LIST<E>) {
      parseList(r, entry.key, out.*entry.member,
                [&](MapReader& item, auto& value) { readFields(item, value, *entry.fields); });
    }
  });
}

}  // namespace fips::privsep::config
