// SPDX-License-Identifier: MIT
// FipsAddress mapping and text form (see fips-address.h). Runs in any
// process; fromBytes input is untrusted.
#include "lib/identity/fips-address.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>

namespace fips::identity {

FipsAddress FipsAddress::fromNodeAddr(const NodeAddr& nodeAddr) {
  // FIPS spec 01 §3.2: addr = 0xfd || NodeAddr[0..15]
  std::array<uint8_t, SIZE> bytes;
  bytes[0] = PREFIX;
  std::copy_n(nodeAddr.bytes().begin(), SIZE - 1, bytes.begin() + 1);
  return FipsAddress(bytes);
}

std::optional<FipsAddress> FipsAddress::fromBytes(std::span<const uint8_t, SIZE> bytes) {
  if (bytes[0] != PREFIX) return std::nullopt;
  std::array<uint8_t, SIZE> copy;
  std::copy(bytes.begin(), bytes.end(), copy.begin());
  return FipsAddress(copy);
}

in6_addr FipsAddress::toIn6() const {
  in6_addr addr;
  std::memcpy(addr.s6_addr, bytes_.data(), SIZE);
  return addr;
}

std::string FipsAddress::toString() const {
  in6_addr addr = toIn6();
  char text[INET6_ADDRSTRLEN];
  inet_ntop(AF_INET6, &addr, text, sizeof text);
  return text;
}

}  // namespace fips::identity
