// SPDX-License-Identifier: MIT
// FipsAddress: a node's IPv6 address in fd00::/8, fd || NodeAddr[0..15]
// (spec 01 §3.2). Used by the router, the TUN helper and fipsctl; fromBytes
// accepts untrusted packets' addresses and never throws.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <netinet/in.h>
#include <optional>
#include <span>
#include <string>

#include "lib/identity/node-addr.h"

namespace fips::identity {

// The 16 bytes of a FIPS IPv6 address; byte 0 is always 0xfd. A value type.
class FipsAddress {
 public:
  static constexpr size_t SIZE = 16;
  static constexpr uint8_t PREFIX = 0xfd;

  // 0xfd followed by the first 15 bytes of the NodeAddr.
  static FipsAddress fromNodeAddr(const NodeAddr& nodeAddr);
  // nullopt unless bytes[0] == 0xfd.
  static std::optional<FipsAddress> fromBytes(std::span<const uint8_t, SIZE> bytes);

  const std::array<uint8_t, SIZE>& bytes() const { return bytes_; }
  in6_addr toIn6() const;
  // RFC 5952 text form (inet_ntop), e.g. "fd13:2f39:a98c:31ba:addb:a652:5f5d:43f2".
  std::string toString() const;

  auto operator<=>(const FipsAddress&) const = default;

 private:
  explicit FipsAddress(const std::array<uint8_t, SIZE>& bytes) : bytes_(bytes) {}

  std::array<uint8_t, SIZE> bytes_;
};

}  // namespace fips::identity
