// SPDX-License-Identifier: MIT
// Process logging setup (see log.h). Runs in every process.
#include "privsep/log.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <unistd.h>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace fips::privsep {

void initLogging(std::string_view role, spdlog::level::level_enum level) {
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  spdlog::sink_ptr sink;
  if (tty) {
    sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  } else {
    sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  }
  auto logger = std::make_shared<spdlog::logger>(std::string(role), std::move(sink));
  logger->set_pattern(tty ? "%H:%M:%S.%e [%n] %^%l%$: %v" : "[%n] %l: %v");
  logger->set_level(level);
  logger->flush_on(spdlog::level::trace);
  spdlog::set_default_logger(logger);
  // A failing sink (stderr on /dev/full, a closed pipe) must not throw.
  spdlog::set_error_handler([](const std::string&) {});
}

std::optional<spdlog::level::level_enum> parseLogLevel(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "trace") return spdlog::level::trace;
  if (lower == "debug") return spdlog::level::debug;
  if (lower == "info") return spdlog::level::info;
  if (lower == "warn" || lower == "warning") return spdlog::level::warn;
  if (lower == "error") return spdlog::level::err;
  return std::nullopt;
}

spdlog::level::level_enum effectiveLogLevel(spdlog::level::level_enum configured) {
  const char* env = std::getenv("FIPS_LOG");
  if (env == nullptr || *env == '\0') return configured;
  return parseLogLevel(env).value_or(configured);
}

void warnOnBadLogEnv() {
  const char* env = std::getenv("FIPS_LOG");
  if (env != nullptr && *env != '\0' && !parseLogLevel(env)) {
    spdlog::warn("FIPS_LOG='{}' is not trace, debug, info, warn or error: ignored", env);
  }
}

void fatalExit() {
  spdlog::default_logger()->flush();
  ::_exit(1);
}

}  // namespace fips::privsep
