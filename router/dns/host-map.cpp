// SPDX-License-Identifier: MIT
// HostMap and the hosts-file parser (see host-map.h).
#include "router/dns/host-map.h"

#include <variant>

#include <fmt/format.h>

#include "privsep/host-name.h"

#include "lib/identity/nip19.h"

namespace fips::router::dns {

namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> fields(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isSpace(s[i])) ++i;
    size_t start = i;
    while (i < s.size() && !isSpace(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// Well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool validUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<uint8_t>(s[i]);
    size_t n = 0;
    uint32_t cp = 0;
    if (b < 0x80) {
      ++i;
      continue;
    } else if ((b & 0xe0) == 0xc0) {
      n = 1;
      cp = b & 0x1fU;
    } else if ((b & 0xf0) == 0xe0) {
      n = 2;
      cp = b & 0x0fU;
    } else if ((b & 0xf8) == 0xf0) {
      n = 3;
      cp = b & 0x07U;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;
    for (size_t k = 1; k <= n; ++k) {
      const auto c = static_cast<uint8_t>(s[i + k]);
      if ((c & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3fU);
    }
    static constexpr uint32_t MIN[] = {0, 0x80, 0x800, 0x10000};
    if (cp < MIN[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

}  // namespace

std::optional<std::string> HostMap::insert(std::string_view hostname, std::string_view npub) {
  if (auto reason = privsep::aliasError(hostname)) {
    return fmt::format("invalid hostname '{}': {}", hostname, *reason);
  }
  auto key = identity::decodeNpub(npub);
  if (!key.ok()) {
    return fmt::format("invalid npub '{}': {}", npub, key.error().message);
  }
  const auto& publicKey = key.value();
  bind(lower(hostname), publicKey);
  byAddr_.insert_or_assign(identity::NodeAddr::fromPublicKey(publicKey), lower(hostname));
  return std::nullopt;
}

void HostMap::bind(const std::string& name, const crypto::PublicKey& key) {
  const auto addr = identity::NodeAddr::fromPublicKey(key);
  if (auto old = byName_.find(name); old != byName_.end()) {
    const auto oldAddr = identity::NodeAddr::fromPublicKey(old->second);
    auto shown = byAddr_.find(oldAddr);
    if (oldAddr != addr && shown != byAddr_.end() && shown->second == name) {
      byAddr_.erase(shown);
    }
  }
  byName_.insert_or_assign(name, key);
}

const crypto::PublicKey* HostMap::find(std::string_view hostname) const {
  auto it = byName_.find(lower(hostname));
  return it == byName_.end() ? nullptr : &it->second;
}

const std::string* HostMap::nameOf(const identity::NodeAddr& addr) const {
  auto it = byAddr_.find(addr);
  return it == byAddr_.end() ? nullptr : &it->second;
}

void HostMap::merge(const HostMap& other) {
  for (const auto& [name, key] : other.byName_) bind(name, key);
  for (const auto& [addr, name] : other.byAddr_) byAddr_.insert_or_assign(addr, name);
}

HostMap hostMapFromPeers(const std::vector<PeerAlias>& peers, std::vector<std::string>& warnings) {
  HostMap map;
  for (const auto& peer : peers) {
    if (auto error = map.insert(peer.alias, peer.npub)) {
      warnings.push_back(fmt::format("peer alias '{}': {}", peer.alias, *error));
    }
  }
  return map;
}

HostMap parseHostsFile(std::string_view text, std::string_view path,
                       std::vector<std::string>& warnings) {
  HostMap map;
  if (!validUtf8(text)) {
    warnings.push_back(fmt::format("{}: not valid UTF-8, no entries read", path));
    return map;
  }
  size_t lineNo = 0;
  while (!text.empty()) {
    ++lineNo;
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    auto f = fields(line);
    if (f.size() != 2) {
      warnings.push_back(
          fmt::format("{}:{}: expected 'hostname npub', got '{}'", path, lineNo, line));
      continue;
    }
    const crypto::PublicKey* before = map.find(f[0]);
    const std::optional<crypto::PublicKey> earlier =
        before != nullptr ? std::optional(*before) : std::nullopt;
    if (auto error = map.insert(f[0], f[1])) {
      warnings.push_back(fmt::format("{}:{}: {}", path, lineNo, *error));
    } else if (earlier && !(*earlier == *map.find(f[0]))) {
      warnings.push_back(fmt::format(
          "{}:{}: '{}' named another npub on an earlier line: this line wins", path, lineNo, f[0]));
    }
  }
  return map;
}

}  // namespace fips::router::dns
