// SPDX-License-Identifier: MIT
// Where the control socket lives when node.control.socket_path is unset
// (spec 08 §1; reference src/config/mod.rs): /run/fips/control.sock when
// the directory /run/fips exists, else $XDG_RUNTIME_DIR/fips/control.sock
// when $XDG_RUNTIME_DIR is an existing directory, else
// /tmp/fips-control.sock. Used by the supervisor (which binds it) and by
// fipsctl (which connects to it); reads only the environment and stat().
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace fips::privsep {

// The default control socket path on this host.
std::string defaultControlSocketPath();

// The resolver's core: `isDir` answers for a path, `xdgRuntimeDir` is the
// value of $XDG_RUNTIME_DIR (nullopt when unset).
std::string resolveControlSocketPath(const std::function<bool(const std::string&)>& isDir,
                                     const std::optional<std::string>& xdgRuntimeDir);

// True when `parent` is one of the private runtime directories the resolver
// uses (/run/fips, $XDG_RUNTIME_DIR/fips): the supervisor then sets it to
// mode 0750, group fips, even if it already existed.
bool isManagedSocketParent(const std::string& parent,
                           const std::optional<std::string>& xdgRuntimeDir);

// $XDG_RUNTIME_DIR, nullopt when unset or empty.
std::optional<std::string> xdgRuntimeDirFromEnv();

}  // namespace fips::privsep
