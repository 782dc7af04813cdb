// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the value checks the field tables name
// (config-fields.h, transport-fields.h). Each returns why a value is refused,
// or nullopt. Runs in the fips supervisor and fipsctl on operator input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace fips::privsep::config::checks {

using Reason = std::optional<std::string>;

Reason userName(const std::string& value);
Reason interfaceName(const std::string& value);
Reason ipAddress(const std::string& value);
Reason socketAddress(const std::string& value);
Reason optSocketAddress(const std::optional<std::string>& value);
Reason socketAddressV6(const std::string& value);
Reason hostPort(const std::string& value);
Reason ipOrSocketAddress(const std::optional<std::string>& value);
Reason unixPathOrHostPort(const std::string& value);
Reason torControlAuth(const std::string& value);
Reason ipv6Cidr(const std::string& value);
// inf (no limit) passes, as in the reference; NaN and <= 0 do not.
Reason positiveOrInf(const double& value);
Reason positiveFinite(const double& value);
Reason optPositiveFinite(const std::optional<double>& value);
Reason nonZero(const std::uint32_t& value);
Reason optNonZeroBurst(const std::optional<std::uint32_t>& value);
Reason atLeastOne(const std::uint64_t& value);
Reason pendingPerFlow(const std::size_t& value);
Reason rekeyAfterSecs(const std::uint64_t& value);
Reason semaphorePermits(const std::size_t& value);
Reason ipv6LinkMtu(const std::uint16_t& value);

}  // namespace fips::privsep::config::checks
