// SPDX-License-Identifier: MIT
// changedKeys: both configs printed by toYaml, flattened to dotted keys and
// compared. Runs in the fips supervisor on validated configs.
#include "privsep/config/config-diff.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "privsep/config/config-yaml-writer.h"

namespace fips::privsep::config {

namespace {

// Dotted key → printed value, and the keys in print order.
struct FlatYaml {
  std::map<std::string, std::string> values;
  std::vector<std::string> order;

  void add(const std::string& key, std::string_view text) {
    auto [it, inserted] = values.try_emplace(key);
    if (inserted) order.push_back(key);
    it->second.append(text);
    it->second += '\n';
  }
};

// toYaml's lines: indent (spaces) and text.
std::vector<std::pair<size_t, std::string_view>> lines(const std::string& yaml) {
  std::vector<std::pair<size_t, std::string_view>> out;
  size_t pos = 0;
  while (pos < yaml.size()) {
    size_t end = yaml.find('\n', pos);
    if (end == std::string::npos) end = yaml.size();
    const std::string_view line(yaml.data() + pos, end - pos);
    pos = end + 1;
    const size_t indent = line.find_first_not_of(' ');
    if (indent != std::string_view::npos) out.emplace_back(indent, line.substr(indent));
  }
  return out;
}

std::string_view trimLeft(std::string_view text) {
  const size_t start = text.find_first_not_of(' ');
  return start == std::string_view::npos ? std::string_view() : text.substr(start);
}

// Flattens toYaml's block output (indented maps, "- " list items, "#"
// comments, which are skipped): a scalar line gives its full key; every
// line of a block list is appended to the key that holds it.
FlatYaml flatten(const std::string& yaml) {
  FlatYaml out;
  const auto all = lines(yaml);
  std::vector<std::pair<size_t, std::string>> parents;  // (indent, dotted key)
  for (size_t i = 0; i < all.size(); ++i) {
    const auto [indent, text] = all[i];
    while (!parents.empty() && parents.back().first >= indent) parents.pop_back();
    const std::string parent = parents.empty() ? "" : parents.back().second;
    const size_t colon = text.find(':');
    if (text.starts_with("#") || colon == std::string_view::npos) continue;  // a comment
    const std::string key =
        (parent.empty() ? "" : parent + ".") + std::string(text.substr(0, colon));
    const std::string_view value = trimLeft(text.substr(colon + 1));
    const bool blockList = value.empty() && i + 1 < all.size() && all[i + 1].first > indent &&
                           all[i + 1].second.starts_with("- ");
    if (blockList) {
      // Every deeper line belongs to this one key.
      out.add(key, "");
      for (; i + 1 < all.size() && all[i + 1].first > indent; ++i) out.add(key, all[i + 1].second);
    } else if (value.empty()) {
      parents.emplace_back(indent, key);  // a map: its keys are one level in
    } else {
      out.add(key, value);
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> changedKeys(const Config& before, const Config& after) {
  const FlatYaml a = flatten(toYaml(before));
  const FlatYaml b = flatten(toYaml(after));
  std::vector<std::string> out;
  for (const std::string& key : b.order) {
    const auto it = a.values.find(key);
    if (it == a.values.end() || it->second != b.values.at(key)) out.push_back(key);
  }
  for (const std::string& key : a.order) {
    if (!b.values.contains(key)) out.push_back(key);
  }
  if (before.node.identity.nsec != after.node.identity.nsec &&
      std::find(out.begin(), out.end(), "node.identity.nsec") == out.end()) {
    out.push_back("node.identity.nsec");
  }
  return out;
}

}  // namespace fips::privsep::config
