# SPDX-License-Identifier: MIT
# Boundary: fips-router (unprivileged, holds keys) <-> fips-transport-*
# (unprivileged, never sees keys or plaintext). Channel: SOCK_SEQPACKET
# socketpair; the worker's end is its fd 4, the router's end arrives from
# the supervisor with attachTransport.
#
# Direction worker -> router (TransportEvent): fds: 0 always.
#   bound      once, first message: what the worker bound.
#   datagrams  any number after bound: one batch of received datagrams
#              (one recvmmsg drain; a stream worker: the FMP packets framed
#              from its connections, peer = the connection's remote
#              address), payloads opaque (FMP frames).
#   stats      any time after bound: counters since start; `counters` holds
#              the transport's own (tcp: the reference's TcpStats names),
#              at most 32 (MAX_NAMED_COUNTERS), each name [a-z0-9_] of at
#              most 40 bytes.
#   resolved   after bound, once per resolve request, echoing its id: at
#              most 8 addresses (MAX_RESOLVED_ADDRS) in resolver order, or
#              none and a one-line error (at most 200 bytes).
#   pathMtu    after bound, any number (at most one per peer per second):
#              a send to peer failed because the kernel's path MTU for it
#              (ICMP learned, or the interface) is below the datagram;
#              mtu is that path MTU as UDP payload bytes (IP_MTU/IPV6_MTU
#              minus the IP and UDP headers). The datagrams were resent
#              one by one, fragmented by the kernel.
# Direction router -> worker (TransportRequest): fds: 0 always.
#   send       after bound: one batch to send with sendmmsg (a stream
#              worker: each payload written to the connection to its peer,
#              dialed on first send). Data goes out
#              with fragmentation allowed (IPv4 DF clear); a datagram with
#              probe set is a path MTU probe (RFC 8899) and goes out with
#              DF set, never fragmented, whatever path MTU the kernel
#              believes (IP_PMTUDISC_PROBE).
#   resolve    after bound, by a worker that resolves names (udp): look up
#              a peer's host name at connect time (getaddrinfo, run off the
#              event loop). host: a DNS name of at most 253 bytes (letters,
#              digits, '-', '_', '.'; labels of 1-63); at most 16 requests
#              in flight. The worker treats anything else as fatal.
# A worker message that breaks these rules (out of this order, over a
# limit, a malformed endpoint, a resolved id no request is waiting for) or
# that the channel cannot read (oversize, fds attached, not a capnp
# message) is a fault of that worker: the router counts it (workerFaults),
# logs it once and closes the worker's channel; the worker exits on EOF
# and the supervisor restarts it. The router and the links over other
# transports carry on; the links over this one re-handshake.
@0xa09afd4b7ef654b9;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fips::schema");

using Common = import "common.capnp";

struct Datagram {
  peer @0 :Common.Endpoint;
  payload @1 :Data;
  probe @2 :Bool;   # router -> worker only: send unfragmented (PMTU probe)
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
      counters @12 :List(Common.NamedCounter);
    }
    resolved :group {
      id @7 :UInt32;                    # the request's id
      addrs @8 :List(Common.Endpoint);  # port as requested
      error @9 :Text;                   # empty when addrs is not
    }
    pathMtu :group {
      peer @10 :Common.Endpoint;
      mtu @11 :UInt16;                  # UDP payload bytes the path carries
    }
  }
}

struct TransportRequest {
  union {
    send @0 :List(Datagram);
    resolve :group {
      id @1 :UInt32;    # chosen by the router, echoed in resolved
      host @2 :Text;
      port @3 :UInt16;
    }
  }
}
