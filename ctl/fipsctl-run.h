// SPDX-License-Identifier: MIT
// Runs the fipsctl binary (FIPSCTL_PATH) for the black-box tests: its exit
// status, stdout and stderr. Test code only; header-only.
#pragma once

#include <cstdlib>
#include <string>
#include <sys/wait.h>

#include "lib/identity/test-util.h"

namespace fips::ctl::test {

struct RunResult {
  int status;
  std::string out;
  std::string err;
};

// Runs `env fipsctl <args>` through /bin/sh (env: "NAME=value ..." or "");
// args must be shell-safe. FIPS_CONTROL_SOCKET is unset unless env sets it.
inline RunResult runFipsctl(const std::string& args, const std::string& env = "") {
  identity::test::TempDir capture;
  std::string outPath = (capture.path() / "out").string();
  std::string errPath = (capture.path() / "err").string();
  std::string command = "env -u FIPS_CONTROL_SOCKET " + env + " " + std::string(FIPSCTL_PATH) +
                        " " + args + " >" + outPath + " 2>" + errPath + " </dev/null";
  int raw = std::system(command.c_str());
  int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return {status, identity::test::readText(outPath), identity::test::readText(errPath)};
}

// One "fipsctl: ..." line on stderr.
inline bool isOneErrorLine(const std::string& err) {
  return err.starts_with("fipsctl: ") && err.find('\n') == err.size() - 1;
}

}  // namespace fips::ctl::test
