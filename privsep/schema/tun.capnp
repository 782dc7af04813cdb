# SPDX-License-Identifier: MIT
# Boundary: fips-tun-helper (privileged: CAP_NET_ADMIN+CAP_NET_RAW, acts
# only on config-derived values) <-> fips-router (unprivileged, untrusted
# from the helper's point of view). Channel: SOCK_SEQPACKET socketpair, fd 4
# in both processes.
#
# Direction tun-helper -> router (TunEvent): fds: at most 1.
#   tunReady   once, with the TUN fd attached (IFF_TUN|IFF_NO_PI).
#   tunFailed  once, instead of tunReady; the router exits.
#   dnsSocketReady  at most once, after tunReady, with the UDP socket bound
#              to the configured privileged dns.bind_addr:dns.port
#              attached (spec 05 §4); only when the router's config slice has
#              such a port, else fatal to the router.
#   dnsTcpSocketReady  at most once, after dnsSocketReady, with the TCP
#              socket bound to the same address and port and listening
#              attached (RFC 7766); same condition as dnsSocketReady. Absent
#              when that bind failed (the helper logs it; UDP serves alone).
# Direction router -> tun-helper (TunRequest): fds: 0 always.
#   accepted   once, after tunReady: the router holds the device. After it
#              the helper's table is empty: any further message is fatal
#              (later issues add setMtu/setRoutes, validated against the
#              fd00::/8 prefix).
@0xb07488fb82c759d8;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fips::schema");

struct TunEvent {
  union {
    tunReady :group {
      name @0 :Text;
      ifindex @1 :UInt32;
      mtu @2 :UInt16;
    }
    tunFailed @3 :Text;   # the reason, one line
    dnsSocketReady @4 :UInt16;  # the port; the bound socket attached
    dnsTcpSocketReady @5 :UInt16;  # the port; the listening TCP socket attached
  }
}

struct TunRequest {
  accepted @0 :Void;
}
