// SPDX-License-Identifier: MIT
// node.log_level as the reference reads it. Used by the fips supervisor (to
// set its own and its children's level) and fipsctl; the input is an
// operator-owned string and every value is accepted.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "privsep/config/node-config.h"

namespace fips::privsep::config {

enum class LogLevel { TRACE, DEBUG, INFO, WARN, ERROR };

// Case-insensitive trace, debug, info, warn or warning, error; anything else
// is INFO (the reference has no error for it). An env override (RUST_LOG-like)
// is applied by the caller, not here.
LogLevel parseLogLevel(std::string_view text);

// parseLogLevel of node.log_level; INFO when unset.
LogLevel logLevel(const NodeConfig& node);

// Whether `text` names a level (so INFO is not a silent fallback).
bool isKnownLogLevel(std::string_view text);

// Lower-case name: "trace", "debug", "info", "warn", "error".
std::string_view logLevelName(LogLevel level);

}  // namespace fips::privsep::config
