// SPDX-License-Identifier: MIT
// node.log_level parsing. Runs in the fips supervisor and fipsctl; every
// operator-supplied string maps to a level.
#include "privsep/config/log-level.h"

#include <algorithm>
#include <cctype>

namespace fips::privsep::config {

namespace {

std::optional<LogLevel> lookup(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "trace") return LogLevel::TRACE;
  if (lower == "debug") return LogLevel::DEBUG;
  if (lower == "info") return LogLevel::INFO;
  if (lower == "warn" || lower == "warning") return LogLevel::WARN;
  if (lower == "error") return LogLevel::ERROR;
  return std::nullopt;
}

}  // namespace

LogLevel parseLogLevel(std::string_view text) {
  return lookup(text).value_or(LogLevel::INFO);
}

LogLevel logLevel(const NodeConfig& node) {
  return node.logLevel ? parseLogLevel(*node.logLevel) : LogLevel::INFO;
}

bool isKnownLogLevel(std::string_view text) {
  return lookup(text).has_value();
}

std::string_view logLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::TRACE:
      return "trace";
    case LogLevel::DEBUG:
      return "debug";
    case LogLevel::INFO:
      return "info";
    case LogLevel::WARN:
      return "warn";
    case LogLevel::ERROR:
      return "error";
  }
  return "info";
}

}  // namespace fips::privsep::config
