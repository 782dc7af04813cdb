// SPDX-License-Identifier: MIT
// Text for raw snapshot fields (see snapshot-text.h).
#include "router/control/json/snapshot-text.h"

#include <arpa/inet.h>
#include <span>
#include <sys/socket.h>

#include "lib/identity/hex.h"

namespace fips::router::control::json {

std::string hex(capnp::Data::Reader data) {
  return identity::toHex(std::span<const uint8_t>(data.begin(), data.size()));
}

std::string ipv6Text(capnp::Data::Reader data) {
  char text[INET6_ADDRSTRLEN] = "-";
  if (data.size() == 16) ::inet_ntop(AF_INET6, data.begin(), text, sizeof(text));
  return text;
}

}  // namespace fips::router::control::json
