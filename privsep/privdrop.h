// SPDX-License-Identifier: MIT
// Privilege drop for the children of `fips` (ARCHITECTURE.md "Processes"):
// switch to the unprivileged user, drop supplementary groups, clear or
// narrow capabilities (libcap-ng), and set no_new_privs. Runs in
// fips-router, fips-transport-*, fips-tun-helper and, for user lookup, in
// the supervisor. Inputs come from the validated config.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <sys/types.h>

namespace fips::privsep {

// A resolved system user.
struct UserIds {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;
};

// Looks up `name`; if it does not exist, looks up "nobody" and sets
// *fellBack. Returns nullopt if neither exists.
std::optional<UserIds> resolveUser(const std::string& name, bool* fellBack);

// Switches to `user` with no capabilities at all (effective, permitted,
// inheritable, ambient and bounding sets cleared), no supplementary groups,
// and PR_SET_NO_NEW_PRIVS. Throws std::runtime_error naming the step that
// failed. Needs root.
void dropToUser(const UserIds& user);

// As dropToUser, but keeps exactly `caps` (CAP_* numbers) in the effective,
// permitted and bounding sets, for fips-tun-helper.
void dropToUserKeeping(const UserIds& user, std::initializer_list<int> caps);

}  // namespace fips::privsep
