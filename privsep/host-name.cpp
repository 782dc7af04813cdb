// SPDX-License-Identifier: MIT
// Host name checks (see host-name.h).
#include "privsep/host-name.h"

#include <charconv>

namespace fips::privsep {

namespace {

constexpr size_t MAX_LABEL = 63;

bool isAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool isLabelChar(char c) {
  return isAlnum(c) || c == '-' || c == '_';
}

bool isValidLabel(std::string_view label) {
  if (label.empty() || label.size() > MAX_LABEL) return false;
  if (label.front() == '-' || label.back() == '-') return false;
  for (char c : label) {
    if (!isLabelChar(c)) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> aliasError(std::string_view alias) {
  if (alias.empty()) return "empty hostname";
  if (alias.size() > MAX_LABEL) return "exceeds 63 characters";
  constexpr std::string_view NPUB_PREFIX = "npub1";
  if (alias.size() >= NPUB_PREFIX.size()) {
    bool npub = true;
    for (size_t i = 0; i < NPUB_PREFIX.size(); ++i) {
      const char c = alias[i];
      const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      if (lower != NPUB_PREFIX[i]) npub = false;
    }
    if (npub) return "must not start with 'npub1' (ambiguous with npub resolution)";
  }
  if (alias.front() == '-') return "must not start with a hyphen";
  if (alias.back() == '-') return "must not end with a hyphen";
  for (char c : alias) {
    if (!isAlnum(c) && c != '-') return "invalid character '" + std::string(1, c) + "'";
  }
  return std::nullopt;
}

bool isValidHostName(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  if (name.empty() || name.size() > MAX_HOST_NAME) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = name.find('.', start);
    const size_t end = dot == std::string_view::npos ? name.size() : dot;
    if (!isValidLabel(name.substr(start, end - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::optional<HostPort> parseHostPort(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string_view host = text.substr(0, colon);
  const std::string_view portText = text.substr(colon + 1);
  unsigned port = 0;
  auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
  if (ec != std::errc() || end != portText.data() + portText.size() || port == 0 || port > 65535) {
    return std::nullopt;
  }
  if (!isValidHostName(host)) return std::nullopt;
  return HostPort{std::string(host), static_cast<uint16_t>(port)};
}

}  // namespace fips::privsep
