// SPDX-License-Identifier: MIT
// Where a child of `fips` finds its channels after exec: fixed descriptor
// numbers, set up by the supervisor's spawn code (privsep/supervisor/spawn).
#pragma once

namespace fips::privsep {

// The child's end of its channel to the supervisor (supervisor.capnp).
inline constexpr int SUPERVISOR_CHANNEL_FD = 3;
// The child's end of its peer channel: tun-helper and router share one
// (tun.capnp); a transport worker's end of router<->transport
// (transport.capnp). Absent (closed) when the child has no peer channel.
inline constexpr int PEER_CHANNEL_FD = 4;

}  // namespace fips::privsep
