// SPDX-License-Identifier: MIT
// Process logging: one spdlog logger per process, named after its role
// (`fips`, `router`, `udp`, `tun-helper`), writing to stderr. Used by every
// process; the level comes from config (node.log_level) or env FIPS_LOG.
#pragma once

#include <optional>
#include <string_view>

#include <spdlog/spdlog.h>

namespace fips::privsep {

// Installs the process-wide default logger named `role` on stderr, colour
// only when stderr is a tty, pattern "[role] level: message" (no timestamp
// when not a tty: journald stamps lines). A write error on stderr (e.g.
// /dev/full) is ignored: logging never kills a process.
void initLogging(std::string_view role, spdlog::level::level_enum level);

// Parses a level name as the reference does for node.log_level:
// case-insensitive trace, debug, info, warn/warning, error; nullopt otherwise.
std::optional<spdlog::level::level_enum> parseLogLevel(std::string_view name);

// The effective level: env FIPS_LOG when it holds a valid level name, else
// `configured`.
spdlog::level::level_enum effectiveLogLevel(spdlog::level::level_enum configured);

// Logs a warning when env FIPS_LOG is set but names no level (it is then
// ignored). Call once, in the supervisor, after initLogging.
void warnOnBadLogEnv();

// Logs a critical line and terminates the process with _exit(1). Used for
// IPC contract violations and broken invariants (STYLE 2.7).
template <typename... Args>
[[noreturn]] void fatal(spdlog::format_string_t<Args...> fmt, Args&&... args);

[[noreturn]] void fatalExit();

template <typename... Args>
[[noreturn]] void fatal(spdlog::format_string_t<Args...> fmt, Args&&... args) {
  spdlog::critical(fmt, std::forward<Args>(args)...);
  fatalExit();
}

}  // namespace fips::privsep
