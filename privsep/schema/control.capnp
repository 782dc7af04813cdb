# SPDX-License-Identifier: MIT
# Boundary: fipsctl / fipstop (any local user in group `fips`) <-> the
# fips-router's control service, Cap'n Proto RPC over the Unix socket
# /run/fips/control.sock (0770, group fips). fds: 0 in both directions
# (maxFdsPerMessage = 0 on the server). All queries are answered from a
# snapshot the data-plane thread publishes once per tick.
@0x99dbae81e990a3b1;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fips::schema");

struct NodeStatus {
  npub @0 :Text;
  nodeAddr @1 :Data;      # 16 bytes
  ipv6 @2 :Data;          # 16 bytes, fd00::/8
  version @3 :Text;
  uptimeSecs @4 :UInt64;
  peerCount @5 :UInt32;
  tunName @6 :Text;
}

# The bootstrap interface. Later issues add the show/stats/connect methods.
interface FipsControl {
  status @0 () -> (status :NodeStatus);
}
