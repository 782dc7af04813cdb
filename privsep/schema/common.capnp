# SPDX-License-Identifier: MIT
# Types shared by every boundary. No messages here: only value types.
@0xa7d2e993781d72a5;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fips::schema");

# Log severity, the order of spdlog's levels.
enum LogLevel {
  trace @0;
  debug @1;
  info @2;
  warn @3;
  error @4;
}

# A transport-level address: an IP socket address (IPv4 as 4 bytes, IPv6 as
# 16 bytes, port in host order, scope id for link-local IPv6).
struct Endpoint {
  ip @0 :Data;
  port @1 :UInt16;
  scopeId @2 :UInt32;
}

# A named counter a worker or the router reports (a transport's own
# counters, with the reference's field names: "connections_accepted", ...).
struct NamedCounter {
  name @0 :Text;    # [a-z0-9_], at most 40 bytes
  value @1 :UInt64;
}
