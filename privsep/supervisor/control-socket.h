// SPDX-License-Identifier: MIT
// The control socket's listening end (spec 08 §1; reference
// src/utils/sockbind.rs): the supervisor binds it as root and hands the fd
// to fips-router, which only accepts on it. Runs in `fips` (root); the path
// comes from the validated config or the default resolver, never from a
// child.
#pragma once

#include <string>

#include "lib/unique-fd.h"

namespace fips::privsep::supervisor {

// Mode of the socket and of a parent directory the supervisor manages.
constexpr unsigned CONTROL_SOCKET_MODE = 0770;
constexpr unsigned CONTROL_PARENT_MODE = 0750;
// The group allowed to connect (as the reference: a fixed name).
constexpr const char* CONTROL_GROUP = "fips";

// Creates the parent directory if missing; removes a stale socket file (one
// nobody listens on); binds a non-blocking, close-on-exec Unix stream
// socket at `path` and listens; sets the socket to CONTROL_SOCKET_MODE and
// group `fips`, and the parent to CONTROL_PARENT_MODE and group `fips` when
// this call created it or it is one of the resolver's private directories.
// A missing `fips` group only skips the chgrp. Throws std::runtime_error
// naming the path when the socket cannot be set up (another daemon listens
// there, a path too long for sun_path, permissions); the supervisor then
// warns and runs without a control socket, as the reference does.
UniqueFd bindControlSocket(const std::string& path);

// Removes the socket file at `path` if it is still a socket (at exit).
void removeControlSocket(const std::string& path);

}  // namespace fips::privsep::supervisor
