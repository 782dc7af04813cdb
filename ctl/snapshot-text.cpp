// SPDX-License-Identifier: MIT
#include "ctl/snapshot-text.h"

#include <arpa/inet.h>
#include <span>
#include <sys/socket.h>

#include "router/identity/hex.h"

namespace fips::ctl {

std::string hex(capnp::Data::Reader data) {
  return router::identity::toHex(std::span<const uint8_t>(data.begin(), data.size()));
}

std::string ipv6Text(capnp::Data::Reader data) {
  char text[INET6_ADDRSTRLEN] = "-";
  if (data.size() == 16) ::inet_ntop(AF_INET6, data.begin(), text, sizeof(text));
  return text;
}

}  // namespace fips::ctl
