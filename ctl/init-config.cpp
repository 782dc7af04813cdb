// SPDX-License-Identifier: MIT
// fipsctl init's fips.yaml (see init-config.h).
#include "ctl/init-config.h"

#include <variant>

#include <fmt/format.h>

#include "lib/identity/key-file.h"
#include "lib/identity/nip19.h"

namespace fips::ctl {

namespace {

// `text` as a double-quoted YAML scalar (control characters refused by the caller).
std::string yamlQuoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

std::string peersSection(const std::vector<InitPeer>& peers) {
  std::string out =
      "# Nodes to link with at start-up: each is the other node's npub (its\n"
      "# fips.pub, or what its `fipsctl init` printed) and the address:port its\n"
      "# UDP transport listens on. A peer is reached by name as <npub>.fips;\n"
      "# add `alias: NAME` to an entry to name it NAME.fips and in fipsctl.\n";
  if (peers.empty()) {
    return out +
           "peers: []\n"
           "#  - npub: \"npub1...\"\n"
           "#    addresses:\n"
           "#      - transport: udp\n"
           "#        addr: \"192.0.2.7:2121\"\n";
  }
  out += "peers:\n";
  for (const InitPeer& p : peers) {
    out += fmt::format(
        "  - npub: {}\n"
        "    addresses:\n"
        "      - transport: udp\n"
        "        addr: {}\n",
        yamlQuoted(p.npub), yamlQuoted(p.addr));
  }
  return out;
}

}  // namespace

std::variant<InitPeer, std::string> parsePeerSpec(std::string_view spec) {
  const auto bad = [spec](std::string_view why) {
    return fmt::format("--peer '{}': {} (expected NPUB@HOST:PORT)", spec, why);
  };
  const auto at = spec.find('@');
  if (at == std::string_view::npos) return bad("no '@'");
  const std::string_view npub = spec.substr(0, at);
  const std::string_view addr = spec.substr(at + 1);
  if (!identity::decodeNpub(npub).ok()) {
    return bad("not a valid npub before '@'");
  }
  const auto colon = addr.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == addr.size()) {
    return bad("no HOST:PORT after '@'");
  }
  if (auto c = unwritableCharacter(addr)) return bad(*c);
  return InitPeer{std::string(npub), std::string(addr)};
}

std::variant<std::pair<std::string, uint16_t>, std::string> parseDnsSpec(std::string_view spec) {
  const auto bad = [spec](std::string_view why) {
    return fmt::format("--dns '{}': {} (expected ADDR:PORT, e.g. [::1]:53)", spec, why);
  };
  const auto colon = spec.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return bad("no ADDR:PORT");
  std::string_view host = spec.substr(0, colon);
  const std::string_view portText = spec.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return bad("an IPv6 address needs brackets");
  }
  unsigned port = 0;
  if (portText.empty() || portText.size() > 5 ||
      portText.find_first_not_of("0123456789") != std::string_view::npos ||
      (port = static_cast<unsigned>(std::stoul(std::string(portText)))) == 0 || port > 65535) {
    return bad("the port must be 1 to 65535");
  }
  if (host.empty() || unwritableCharacter(host)) return bad("no address");
  return std::pair<std::string, uint16_t>(std::string(host), static_cast<uint16_t>(port));
}

std::optional<std::string> initSocketPath(const std::string& dir) {
  if (dir == identity::SYSTEM_CONFIG_DIR) return std::nullopt;
  return dir + "/control.sock";
}

std::optional<std::string> unwritableCharacter(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return fmt::format("control character 0x{:02x} not supported", static_cast<unsigned char>(c));
    }
  }
  return std::nullopt;
}

std::string initYaml(const InitSettings& s) {
  const std::string file = s.dir + "/fips.yaml";
  std::string control;
  if (s.socketPath) {
    control = fmt::format(
        "  control:\n"
        "    # fipsctl and fipstop talk to the node over this socket;\n"
        "    # `fipsctl -c {}` finds it here.\n"
        "    socket_path: {}\n",
        file, yamlQuoted(*s.socketPath));
  } else {
    control =
        "  # The control socket (fipsctl, fipstop) is at its default place,\n"
        "  # /run/fips/control.sock; set node.control.socket_path to move it.\n";
  }
  return fmt::format(
      "# FIPS node configuration, written by `fipsctl init`.\n"
      "#   node:    {npub}\n"
      "#   address: {ipv6}\n"
      "# Check it:  fips --check -c {file}\n"
      "#            (prints the effective configuration, every default included)\n"
      "# Start it:  sudo fips -c {file}\n"
      "# Watch it:  fipsctl -c {file} status\n"
      "\n"
      "node:\n"
      "  identity:\n"
      "    # Keep this node's identity across restarts: its key pair is fips.key\n"
      "    # (secret, mode 0600) and fips.pub beside this file, in {dir}.\n"
      "    # The npub and the fd00:: address above are derived from it.\n"
      "    persistent: true\n"
      "{control}"
      "\n"
      "# The fips0 interface: programs reach every node of the mesh at its\n"
      "# fd00::/8 address (or <npub>.fips name) through it, end-to-end encrypted.\n"
      "tun:\n"
      "  enabled: true\n"
      "  name: fips0\n"
      "\n"
      "# The .fips DNS responder: answers <npub>.fips (and names from\n"
      "# /etc/fips/hosts) with the node's fd00:: address. Point the system\n"
      "# resolver's .fips domain at this address and port (e.g. with\n"
      "# systemd-resolved), or use port 53 where nothing else answers DNS (e.g.\n"
      "# in a network namespace, with `nameserver ::1` in its resolv.conf).\n"
      "dns:\n"
      "  enabled: true\n"
      "  bind_addr: {bind}\n"
      "  port: {port}\n"
      "\n"
      "# How this node reaches its peers: UDP, listening on this address:port\n"
      "# (the address other nodes give in their peers entry for this node).\n"
      "transports:\n"
      "  udp:\n"
      "    bind_addr: {listen}\n"
      "\n"
      "{peers}",
      fmt::arg("npub", s.npub), fmt::arg("ipv6", s.ipv6), fmt::arg("file", file),
      fmt::arg("dir", s.dir), fmt::arg("control", control), fmt::arg("bind", yamlQuoted(s.dnsBind)),
      fmt::arg("port", s.dnsPort), fmt::arg("listen", yamlQuoted(s.listen)),
      fmt::arg("peers", peersSection(s.peers)));
}

}  // namespace fips::ctl
