// SPDX-License-Identifier: MIT
// Command-line checks shared by fipsctl and fipstop (CLI11 validators).
// Runs in the clients; the text checked is operator input.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "lib/identity/secret-text.h"

namespace fips::ctl {

// Refuses an empty value ("-s ''"), which would otherwise read as "not
// given" and quietly fall back to the default socket path.
inline const CLI::Validator nonEmptyPath(
    [](std::string& value) { return value.empty() ? std::string("empty path") : std::string(); },
    "PATH");

// fipstop -r/--refresh: whole seconds, 1 to 3600. The refusal names the
// option, its unit and its range (CLI11's own Range says only "Value x not
// in range 1 to 3600").
inline const CLI::Validator refreshSeconds(
    [](std::string& value) {
      uint64_t secs = 0;
      const char* end = value.data() + value.size();
      const auto [at, error] = std::from_chars(value.data(), end, secs);
      if (error == std::errc() && at == end && secs >= 1 && secs <= 3600) return std::string();
      return "'" + value +
             "' is not a number of seconds from 1 to 3600 (-r takes whole seconds, e.g. -r 5)";
    },
    "SECONDS 1-3600");

// Refuses a secret key (an nsec, or 64 hex characters) given where a peer
// belongs, without repeating it (#7): the value never reaches the daemon.
inline const CLI::Validator notSecretKey(
    [](std::string& value) { return identity::secretKeyNotPeer(value).value_or(std::string()); },
    "");

}  // namespace fips::ctl
