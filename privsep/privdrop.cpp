// SPDX-License-Identifier: MIT
// Privilege drop with libcap-ng (see privdrop.h).
#include "privsep/privdrop.h"

#include <cerrno>
#include <cstring>
#include <pwd.h>
#include <stdexcept>
#include <string>
#include <sys/prctl.h>

#include <cap-ng.h>

namespace fips::privsep {

namespace {

std::optional<UserIds> lookup(const std::string& name) {
  passwd* pw = ::getpwnam(name.c_str());
  if (pw == nullptr) return std::nullopt;
  return UserIds{name, pw->pw_uid, pw->pw_gid};
}

void fail(const std::string& step) {
  throw std::runtime_error("privilege drop: " + step + ": " + std::strerror(errno));
}

void setNoNewPrivs() {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("PR_SET_NO_NEW_PRIVS");
}

void changeId(const UserIds& user) {
  int rc = capng_change_id(static_cast<int>(user.uid), static_cast<int>(user.gid),
                           static_cast<capng_flags_t>(CAPNG_DROP_SUPP_GRP));
  if (rc != 0) fail("capng_change_id(" + user.name + ") returned " + std::to_string(rc));
}

}  // namespace

std::optional<UserIds> resolveUser(const std::string& name, bool* fellBack) {
  *fellBack = false;
  if (auto user = lookup(name)) return user;
  *fellBack = true;
  return lookup("nobody");
}

void dropToUser(const UserIds& user) {
  capng_clear(CAPNG_SELECT_ALL);
  if (capng_apply(CAPNG_SELECT_BOUNDS) != 0) fail("clearing the bounding set");
  changeId(user);
  if (capng_have_capabilities(CAPNG_SELECT_CAPS) != CAPNG_NONE) fail("capabilities remain");
  setNoNewPrivs();
}

void dropToUserKeeping(const UserIds& user, std::initializer_list<int> caps) {
  capng_clear(CAPNG_SELECT_ALL);
  for (int cap : caps) {
    auto sets = static_cast<capng_type_t>(CAPNG_EFFECTIVE | CAPNG_PERMITTED | CAPNG_BOUNDING_SET);
    if (capng_update(CAPNG_ADD, sets, static_cast<unsigned int>(cap)) != 0) fail("capng_update");
  }
  if (capng_apply(CAPNG_SELECT_BOUNDS) != 0) fail("narrowing the bounding set");
  changeId(user);
  setNoNewPrivs();
}

}  // namespace fips::privsep
