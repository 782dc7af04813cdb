// SPDX-License-Identifier: MIT
// Unit tests for node.log_level parsing. Test-only code.
#include "privsep/config/log-level.h"

#include <doctest/doctest.h>

namespace fips::privsep::config {

TEST_CASE("log levels parse case-insensitively, anything else is info") {
  CHECK(parseLogLevel("trace") == LogLevel::TRACE);
  CHECK(parseLogLevel("Debug") == LogLevel::DEBUG);
  CHECK(parseLogLevel("INFO") == LogLevel::INFO);
  CHECK(parseLogLevel("warn") == LogLevel::WARN);
  CHECK(parseLogLevel("Warning") == LogLevel::WARN);
  CHECK(parseLogLevel("ERROR") == LogLevel::ERROR);
  CHECK(parseLogLevel("verbose") == LogLevel::INFO);
  CHECK(parseLogLevel("") == LogLevel::INFO);
  CHECK_FALSE(isKnownLogLevel("verbose"));
  CHECK(logLevelName(LogLevel::WARN) == "warn");
}

TEST_CASE("node.log_level unset means info") {
  NodeConfig node;
  CHECK(logLevel(node) == LogLevel::INFO);
  node.logLevel = "debug";
  CHECK(logLevel(node) == LogLevel::DEBUG);
}

}  // namespace fips::privsep::config
