// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the value checks of the field tables
// (see field-checks.h). Runs in the fips supervisor and fipsctl on
// operator-owned input; never prints a secret (no check quotes one).
#include "privsep/config/field-checks.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "privsep/config/address.h"
#include "privsep/config/node-config.h"
#include "privsep/config/yaml-reader.h"

namespace fips::privsep::config::checks {

namespace {

constexpr std::size_t MAX_IFNAME_CHARS = 15;  // IFNAMSIZ - 1
constexpr std::size_t MAX_USER_CHARS = 32;
// tokio's Semaphore::MAX_PERMITS in the reference.
constexpr std::size_t MAX_SEMAPHORE_PERMITS = std::numeric_limits<std::size_t>::max() >> 3;
// RFC 8200: the kernel disables IPv6 on a link below this MTU.
constexpr std::uint16_t IPV6_MIN_MTU = 1280;

// "VALUE is not WHAT" unless `ok`.
Reason expect(bool ok, std::string_view value, std::string_view what) {
  if (ok) return std::nullopt;
  return fmt::format("{} is not {}", quoteValue(value), what);
}

bool positive(double v) {
  return std::isfinite(v) && v > 0;
}

}  // namespace

Reason userName(const std::string& value) {
  const bool ok =
      !value.empty() && value.size() <= MAX_USER_CHARS && value.front() != '-' &&
      std::all_of(value.begin(), value.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
      });
  return expect(ok, value, "a user name");
}

// Linux dev_valid_name().
Reason interfaceName(const std::string& value) {
  const bool ok =
      !value.empty() && value.size() <= MAX_IFNAME_CHARS && value != "." && value != ".." &&
      std::none_of(value.begin(), value.end(), [](char c) {
        return c == '/' || c == ':' || c == '\0' || std::isspace(static_cast<unsigned char>(c));
      });
  return expect(ok, value, "an interface name");
}

Reason ipAddress(const std::string& value) {
  return expect(isIpAddress(value), value, "an IP address");
}

Reason socketAddress(const std::string& value) {
  return expect(isSocketAddress(value), value, "an address:port");
}

Reason optSocketAddress(const std::optional<std::string>& value) {
  return value ? socketAddress(*value) : std::nullopt;
}

Reason socketAddressV6(const std::string& value) {
  return expect(isSocketAddressV6(value), value, "an [IPv6]:port");
}

Reason hostPort(const std::string& value) {
  return expect(isHostPort(value), value, "a host:port");
}

Reason ipOrSocketAddress(const std::optional<std::string>& value) {
  if (!value) return std::nullopt;
  return expect(isIpAddress(*value) || isSocketAddress(*value), *value,
                "an IP address or address:port");
}

Reason unixPathOrHostPort(const std::string& value) {
  return expect(value.starts_with("/") || isHostPort(value), value,
                "a Unix socket path or host:port");
}

// The value may hold a password: the reason never quotes it.
Reason torControlAuth(const std::string& value) {
  const bool ok = value == "cookie" || (value.starts_with("cookie:") && value.size() > 7) ||
                  value.starts_with("password:");
  if (ok) return std::nullopt;
  return "is not cookie, cookie:<path> or password:<secret>";
}

Reason ipv6Cidr(const std::string& value) {
  return expect(isIpv6Cidr(value), value, "an IPv6 CIDR");
}

Reason positiveOrInf(const double& value) {
  if (!std::isnan(value) && value > 0) return std::nullopt;
  return fmt::format("{} is not a positive number", value);
}

Reason positiveFinite(const double& value) {
  if (positive(value)) return std::nullopt;
  return "must be a finite number above 0";
}

Reason optPositiveFinite(const std::optional<double>& value) {
  return value ? positiveFinite(*value) : std::nullopt;
}

Reason nonZero(const std::uint32_t& value) {
  if (value != 0) return std::nullopt;
  return "must not be 0";
}

Reason optNonZeroBurst(const std::optional<std::uint32_t>& value) {
  if (value != 0u) return std::nullopt;
  return "must not be 0 (omit it to derive it from node.limits.max_peers)";
}

Reason atLeastOne(const std::uint64_t& value) {
  if (value >= 1) return std::nullopt;
  return "must be at least 1";
}

Reason pendingPerFlow(const std::size_t& value) {
  if (value >= 1 && value <= MAX_PENDING_PER_FLOW) return std::nullopt;
  return fmt::format("must be within 1..{}", MAX_PENDING_PER_FLOW);
}

Reason rekeyAfterSecs(const std::uint64_t& value) {
  if (value > REKEY_JITTER_SECS) return std::nullopt;
  return fmt::format("must be greater than {} (the rekey jitter)", REKEY_JITTER_SECS);
}

Reason semaphorePermits(const std::size_t& value) {
  if (value >= 1 && value <= MAX_SEMAPHORE_PERMITS) return std::nullopt;
  return fmt::format("must be within 1..{}", MAX_SEMAPHORE_PERMITS);
}

Reason ipv6LinkMtu(const std::uint16_t& value) {
  if (value >= IPV6_MIN_MTU) return std::nullopt;
  return fmt::format("{} is below the IPv6 minimum link MTU of {}", value, IPV6_MIN_MTU);
}

}  // namespace fips::privsep::config::checks
