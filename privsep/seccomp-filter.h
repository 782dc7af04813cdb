// SPDX-License-Identifier: MIT
// The seccomp allow-lists of the unprivileged processes (fips-router and
// fips-transport-*), loaded with libseccomp once a process has acquired
// every resource it needs and dropped privileges.
#pragma once

namespace fips::privsep {

// Which process's list to load.
enum class SeccompProfile {
  ROUTER,
  TRANSPORT,
  // TRANSPORT plus what a resolver thread's getaddrinfo needs: threads
  // (clone with CLONE_THREAD only), read-only opens of /etc files, and
  // IPv4/IPv6 sockets for DNS queries.
  TRANSPORT_RESOLVER,
  // TRANSPORT plus a stream worker's connections: TCP sockets of the
  // Internet families only (socket, connect, accept4, shutdown,
  // getsockname, getpeername).
  TRANSPORT_STREAM,
  TUN_HELPER,
};

// Loads the allow-list for `profile` (needs no_new_privs already set). A
// syscall outside the list fails with EPERM rather than killing the
// process: the call is refused either way, and a node whose dependency makes
// an unexpected call degrades visibly (an error logged) instead of
// restarting in a loop. Throws std::runtime_error if the filter cannot be
// built or loaded. When the build has no libseccomp, logs a warning.
void loadSeccomp(SeccompProfile profile);

}  // namespace fips::privsep
