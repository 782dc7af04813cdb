// SPDX-License-Identifier: MIT
// Which control socket fipsctl talks to, so that two nodes on one host
// need no -s on every call: `-s PATH`, else the socket of `-c CONFIG` (its
// node.control.socket_path, read with the loader `fips` uses, or the default
// path the node would use), else $FIPS_CONTROL_SOCKET, else the default path
// (privsep/control-path.h): what is on the command line wins over the
// environment. Runs in fipsctl and fipstop; the flags, the variable and the
// file are the operator's.
#pragma once

#include <optional>
#include <string>

namespace fips::ctl {

// Where the socket path may come from, highest precedence first.
struct SocketSources {
  std::string flag;                // -s; "" = not given
  std::string configFile;          // -c; "" = not given
  std::optional<std::string> env;  // $FIPS_CONTROL_SOCKET; unset or "" = not given
};

// The path to connect to. A config that sets no socket_path gives the
// default path (the variable does not override -c); a config that does not
// load throws ControlError (control-client.h) naming the file, since the
// operator asked for it.
std::string chooseControlSocket(const SocketSources& sources);

// The sources of this process: `flag`, $FIPS_CONTROL_SOCKET and `configFile`.
SocketSources socketSourcesFromProcess(const std::string& flag, const std::string& configFile);

}  // namespace fips::ctl
