// SPDX-License-Identifier: MIT
// Tor peer addresses and isolation credentials (see tor-address.h).
#include "transports/tor/tor-address.h"

#include <arpa/inet.h>
#include <array>
#include <charconv>

#include <fmt/format.h>

#include "privsep/host-name.h"

namespace fips::transport::tor {

namespace {

constexpr std::string_view ONION_SUFFIX = ".onion";
// A v3 onion label: base32 of pubkey(32) | checksum(2) | version(1) (rend-spec-v3 §6).
constexpr size_t ONION_V3_LABEL = 56;

bool isBase32(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7');
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Why `host` (without ".onion") is not a v3 onion name, or "" if it is.
std::string onionError(std::string_view host) {
  const size_t dot = host.rfind('.');
  const std::string_view label = dot == std::string_view::npos ? host : host.substr(dot + 1);
  if (label.size() != ONION_V3_LABEL) {
    return fmt::format("onion label has {} characters, a v3 address has 56", label.size());
  }
  for (char c : label) {
    if (!isBase32(c)) return "onion label holds a character outside base32 (a-z, 2-7)";
  }
  if (dot != std::string_view::npos && !privsep::isValidHostName(host.substr(0, dot))) {
    return "invalid subdomain before the onion label";
  }
  return "";
}

std::optional<uint16_t> parsePort(std::string_view text) {
  unsigned port = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (ec != std::errc() || end != text.data() + text.size() || port == 0 || port > 65535) {
    return std::nullopt;
  }
  return static_cast<uint16_t>(port);
}

TorAddress failure(std::string why) {
  return {std::nullopt, std::move(why)};
}

}  // namespace

bool isOnionV3Hostname(std::string_view host) {
  return endsWith(host, ONION_SUFFIX) && host.size() == ONION_V3_LABEL + ONION_SUFFIX.size() &&
         onionError(host.substr(0, ONION_V3_LABEL)).empty();
}

TorAddress parseTorAddress(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return failure("expected host:port");
  const auto port = parsePort(text.substr(colon + 1));
  if (!port) return failure("port is not 1-65535");
  std::string_view host = text.substr(0, colon);
  std::array<uint8_t, 16> numeric{};
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    const std::string inner(host.substr(1, host.size() - 2));
    if (inet_pton(AF_INET6, inner.c_str(), numeric.data()) != 1) {
      return failure("invalid IPv6 address in brackets");
    }
    return {Socks5Target{inner, *port}, ""};
  }
  if (host.empty()) return failure("empty host");
  if (host.size() > TOR_MAX_HOST) return failure("host longer than 249 bytes");
  const std::string hostText(host);
  if (inet_pton(AF_INET, hostText.c_str(), numeric.data()) == 1) {
    return {Socks5Target{hostText, *port}, ""};
  }
  if (endsWith(host, ONION_SUFFIX)) {
    auto why = onionError(host.substr(0, host.size() - ONION_SUFFIX.size()));
    if (!why.empty()) return failure(std::move(why));
    return {Socks5Target{hostText, *port}, ""};
  }
  if (!privsep::isValidHostName(host)) return failure("invalid host name");
  if (host.find('.') == std::string_view::npos) {
    return failure("host name must be fully qualified (hold a dot)");
  }
  return {Socks5Target{hostText, *port}, ""};
}

Socks5Auth torIsolationAuth(const Socks5Target& target) {
  const bool v6 = target.host.find(':') != std::string::npos;
  return {"fips", v6 ? fmt::format("[{}]:{}", target.host, target.port)
                     : fmt::format("{}:{}", target.host, target.port)};
}

}  // namespace fips::transport::tor
