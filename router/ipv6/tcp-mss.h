// SPDX-License-Identifier: MIT
// TCP MSS clamping of outbound SYNs on the TUN (FIPS spec 05 §3) and the
// TCP/UDP checksum recomputation it needs. Runs in fips-router on packets
// read from the TUN (local, unvalidated); never reads past the buffer.
#pragma once

#include <cstdint>
#include <span>

namespace fips::router::ipv6 {

// If packet is IPv6 with TCP directly after the header (next header 6), the
// SYN flag set and an MSS option (kind 2, length 4) above maxMss, rewrites
// the MSS to maxMss and recomputes the TCP checksum. Returns whether it
// changed the packet. maxMss 0 never clamps. Malformed options stop the walk.
bool clampTcpMss(std::span<uint8_t> packet, uint16_t maxMss);

// Recomputes the TCP or UDP checksum of an IPv6 packet over payload_len bytes
// after the header (UDP: 0 becomes 0xffff). No-op for other protocols, for a
// payload_len of 0, or one that runs past the buffer.
void recomputeL4Checksum(std::span<uint8_t> packet);

}  // namespace fips::router::ipv6
