// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: address shape checks. Runs in the fips
// supervisor and fipsctl on operator-owned strings; no name resolution.
#include "privsep/config/address.h"

#include <arpa/inet.h>
#include <cstdint>
#include <string>

#include "privsep/config/yaml-reader.h"
#include "privsep/host-name.h"

namespace fips::privsep::config {

namespace {

constexpr std::uint64_t MAX_PORT = 65535;
constexpr std::uint64_t MAX_V6_PREFIX = 128;

bool isIpv4(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return false;
  in_addr out{};
  return inet_pton(AF_INET, std::string(text).c_str(), &out) == 1;
}

bool isIpv6(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return false;
  in6_addr out{};
  return inet_pton(AF_INET6, std::string(text).c_str(), &out) == 1;
}

bool isDecimal(std::string_view text, std::uint64_t max) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return parseUnsigned(text, max).status == UintStatus::OK;
}

bool isPort(std::string_view text) {
  return isDecimal(text, MAX_PORT);
}

// Only digits and dots, with at least one dot: meant as an IPv4 literal.
bool looksLikeIpv4(std::string_view text) {
  return text.find('.') != std::string_view::npos &&
         text.find_first_not_of("0123456789.") == std::string_view::npos;
}

// Splits "[v6]:port" into its parts; false when the text has another shape.
bool splitBracketed(std::string_view text, std::string_view& host, std::string_view& port) {
  if (text.empty() || text.front() != '[') return false;
  const std::size_t close = text.find(']');
  if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
    return false;
  }
  host = text.substr(1, close - 1);
  port = text.substr(close + 2);
  return true;
}

// An IPv6 zone after '%': a scope id (the reference's form, u32) or an
// interface name (IFNAMSIZ - 1 characters), which fips-router looks up.
bool isZone(std::string_view text) {
  constexpr std::size_t MAX_IFNAME = 15;
  constexpr std::uint64_t MAX_SCOPE = 0xFFFFFFFF;
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos) {
    return isDecimal(text, MAX_SCOPE);
  }
  if (text.empty() || text.size() > MAX_IFNAME) return false;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

// An IPv6 address, with a zone ("fe80::1%2", "fe80::1%eth0") or without.
bool isScopedIpv6(std::string_view text) {
  const std::size_t pct = text.find('%');
  if (pct == std::string_view::npos) return isIpv6(text);
  return isIpv6(text.substr(0, pct)) && isZone(text.substr(pct + 1));
}

}  // namespace

bool isIpAddress(std::string_view text) {
  return isIpv4(text) || isIpv6(text);
}

bool isSocketAddressV6(std::string_view text) {
  std::string_view host;
  std::string_view port;
  return splitBracketed(text, host, port) && isScopedIpv6(host) && isPort(port);
}

bool isSocketAddress(std::string_view text) {
  if (isSocketAddressV6(text)) return true;
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return false;
  return isIpv4(text.substr(0, colon)) && isPort(text.substr(colon + 1));
}

bool isHostPort(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view port = text.substr(colon + 1);
  if (!isPort(port) || parseUnsigned(port, MAX_PORT).value == 0) return false;
  const std::string_view host = text.substr(0, colon);
  if (looksLikeIpv4(host)) return isIpv4(host);
  return isSocketAddress(text) || isValidHostName(host);
}

std::optional<std::string> badIpLiteral(std::string_view hostPort) {
  std::string_view host;
  std::string_view port;
  if (splitBracketed(hostPort, host, port)) {
    if (isScopedIpv6(host)) return std::nullopt;
    return std::string(host) + " is not a valid IPv6 address";
  }
  const std::size_t colon = hostPort.rfind(':');
  host = colon == std::string_view::npos ? hostPort : hostPort.substr(0, colon);
  if (!looksLikeIpv4(host) || isIpv4(host)) return std::nullopt;
  return std::string(host) + " is not a valid IPv4 address";
}

bool isMeshSocketAddress(std::string_view text) {
  std::string_view host;
  std::string_view port;
  if (!splitBracketed(text, host, port)) return false;
  host = host.substr(0, host.find('%'));
  in6_addr out{};
  constexpr std::uint8_t FIPS_PREFIX = 0xfd;  // fd00::/8
  return host.find('\0') == std::string_view::npos &&
         inet_pton(AF_INET6, std::string(host).c_str(), &out) == 1 && out.s6_addr[0] == FIPS_PREFIX;
}

bool isIpv6Cidr(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return false;
  return isIpv6(text.substr(0, slash)) && isDecimal(text.substr(slash + 1), MAX_V6_PREFIX);
}

bool isLoopbackAddress(std::string_view text) {
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find(']');
    if (close != std::string_view::npos) return text.substr(1, close - 1) == "::1";
  }
  const std::size_t colon = text.rfind(':');
  const std::string_view host = colon == std::string_view::npos ? text : text.substr(0, colon);
  return host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" ||
         host.substr(0, 4) == "127.";
}

}  // namespace fips::privsep::config
