// SPDX-License-Identifier: MIT
// Starting a child of the supervisor: fork + exec of a separate binary with
// its channel fds on the fixed numbers of privsep/fd-layout.h. Runs in the
// `fips` supervisor (root); inputs are supervisor-built, never network data.
#pragma once

#include <string>
#include <sys/types.h>

#include "lib/unique-fd.h"

namespace fips::privsep::supervisor {

// Directory holding fips-router, fips-tun-helper and fips-transport-*: the
// directory of the running `fips` binary when it holds them (build tree,
// or a flat install), else the configured libexec directory.
std::string childBinaryDir();

// Forks and execs `dir/binary` with `supervisorEnd` as fd 3 and `peerEnd`
// (may be empty) as fd 4; every other fd above 2 is closed in the child, the
// signal mask and dispositions are reset, and the child gets SIGTERM when
// the supervisor dies (PR_SET_PDEATHSIG). Returns the child's pid. Throws
// std::system_error if fork fails; an exec failure makes the child exit 127.
pid_t spawnChild(const std::string& dir, const std::string& binary, const UniqueFd& supervisorEnd,
                 const UniqueFd& peerEnd);

}  // namespace fips::privsep::supervisor
