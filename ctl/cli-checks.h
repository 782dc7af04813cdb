// SPDX-License-Identifier: MIT
// Command-line checks shared by fipsctl and fipstop (CLI11 validators).
// Runs in the clients; the text checked is operator input.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace fips::ctl {

// Refuses an empty value ("-s ''"), which would otherwise read as "not
// given" and quietly fall back to the default socket path.
inline const CLI::Validator nonEmptyPath(
    [](std::string& value) { return value.empty() ? std::string("empty path") : std::string(); },
    "PATH");

}  // namespace fips::ctl
