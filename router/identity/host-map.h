// SPDX-License-Identifier: MIT
// The hosts file (/etc/fips/hosts; reference src/upper/hosts.rs): lines
// "hostname npub", '#' starts a comment line, names matched
// case-insensitively. Used by fipsctl to accept a name wherever it takes a
// peer. The file is operator input: a malformed line is skipped, never fatal.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace fips::router::identity {

constexpr const char* DEFAULT_HOSTS_PATH = "/etc/fips/hosts";

// The reference's hostname rule: 1-63 characters of [A-Za-z0-9-], not
// starting or ending with '-', not starting with "npub1" (any case).
bool validHostname(std::string_view name);

// Lower-case hostname -> npub for every valid line of `text` (a later line
// wins). Lines with other than two fields, a bad name or a bad npub are
// skipped.
std::map<std::string, std::string> parseHosts(std::string_view text);

// The npub of `name` in the hosts file at `path`; nullopt if the file is
// missing or unreadable or has no such name.
std::optional<std::string> lookupHost(const std::string& path, std::string_view name);

}  // namespace fips::router::identity
