// SPDX-License-Identifier: MIT
// The fips.yaml that `fipsctl init` writes (spec 08 §3; the reference's
// config keys): a node with a persistent identity beside the file, fips0,
// the .fips DNS responder, one UDP transport, its control socket and the
// peers of the command line, every section commented for its reader. Pure
// functions of operator input; runs in fipsctl.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace fips::ctl {

// One --peer: the other node's npub and where it listens (host:port).
struct InitPeer {
  std::string npub;
  std::string addr;
};

// What the generated file says.
struct InitSettings {
  std::string dir;                        // absolute; fips.key and fips.pub live here
  std::string npub;                       // this node's, for the header comment
  std::string ipv6;                       // its fd00::/8 address, for the header comment
  std::string listen;                     // transports.udp.bind_addr
  std::optional<std::string> socketPath;  // node.control.socket_path; unset = the default
  std::string dnsBind = "::1";            // dns.bind_addr
  uint16_t dnsPort = 5354;                // dns.port
  std::vector<InitPeer> peers;
};

// "NPUB@HOST:PORT" as an InitPeer: the npub must decode, the address must be
// non-empty and end in ":PORT" (the config loader checks it further). The
// error is one line naming the argument.
std::variant<InitPeer, std::string> parsePeerSpec(std::string_view spec);

// --dns "ADDR:PORT" ("[v6]:port" or "v4:port") as dns.bind_addr and
// dns.port, or a one-line error. The address is checked by the loader.
std::variant<std::pair<std::string, uint16_t>, std::string> parseDnsSpec(std::string_view spec);

// node.control.socket_path for a node whose files are in `dir` (absolute):
// dir/control.sock, unless `dir` is /etc/fips, whose node keeps the
// default (/run/fips/control.sock, spec 08 §1) that plain `fipsctl` finds.
std::optional<std::string> initSocketPath(const std::string& dir);

// A character init refuses in a path or address it writes (a control
// character, which would end a YAML comment or scalar), named for an error;
// nullopt when `text` has none.
std::optional<std::string> unwritableCharacter(std::string_view text);

// The commented fips.yaml for `settings`. Strings are double-quoted YAML
// scalars; callers refuse control characters first (unwritableCharacter).
std::string initYaml(const InitSettings& settings);

}  // namespace fips::ctl
