// SPDX-License-Identifier: MIT
// The hosts file (see host-map.h).
#include "router/identity/host-map.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <variant>
#include <vector>

#include "router/identity/nip19.h"

namespace fips::router::identity {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::vector<std::string> fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string field; in >> field;) out.push_back(field);
  return out;
}

}  // namespace

bool validHostname(std::string_view name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-') return false;
  if (lower(name).starts_with("npub1")) return false;
  return std::all_of(name.begin(), name.end(),
                     [](unsigned char c) { return std::isalnum(c) != 0 || c == '-'; });
}

std::map<std::string, std::string> parseHosts(std::string_view text) {
  std::map<std::string, std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    const auto f = fields(line);
    if (f.empty() || f[0].starts_with('#')) continue;
    if (f.size() != 2 || !validHostname(f[0])) continue;
    if (!std::holds_alternative<PublicKey>(decodeNpub(f[1]))) continue;
    out[lower(f[0])] = f[1];
  }
  return out;
}

std::optional<std::string> lookupHost(const std::string& path, std::string_view name) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  const auto hosts = parseHosts(text.str());
  auto it = hosts.find(lower(name));
  if (it == hosts.end()) return std::nullopt;
  return it->second;
}

}  // namespace fips::router::identity
