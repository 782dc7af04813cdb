# SPDX-License-Identifier: MIT
# Boundary: fips-router (unprivileged, holds keys) <-> fips-transport-*
# (unprivileged, never sees keys or plaintext). Channel: SOCK_SEQPACKET
# socketpair; the worker's end is its fd 4, the router's end arrives from
# the supervisor with attachTransport.
#
# Direction worker -> router (TransportEvent): fds: 0 always.
#   bound      once, first message: what the worker bound.
#   datagrams  any number after bound: one batch of received datagrams
#              (one recvmmsg drain), payloads opaque (FMP frames).
#   stats      any time after bound: counters since start.
# Direction router -> worker (TransportRequest): fds: 0 always.
#   send       after bound: one batch to send with sendmmsg.
# The router treats a worker message out of this order as fatal for the
# worker's channel (it drops the channel; the supervisor restarts it).
@0xa09afd4b7ef654b9;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fips::schema");

using Common = import "common.capnp";

struct Datagram {
  peer @0 :Common.Endpoint;
  payload @1 :Data;
}

struct TransportEvent {
  union {
    bound :group {
      type @0 :Text;
      local @1 :List(Common.Endpoint);
    }
    datagrams @2 :List(Datagram);
    stats :group {
      rxDatagrams @3 :UInt64;
      txDatagrams @4 :UInt64;
      kernelDrops @5 :UInt64;   # SO_RXQ_OVFL
      sendErrors @6 :UInt64;
    }
  }
}

struct TransportRequest {
  send @0 :List(Datagram);
}
