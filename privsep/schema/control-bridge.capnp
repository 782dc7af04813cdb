# SPDX-License-Identifier: MIT
# Boundary: inside fips-router, the control thread (KJ loop, serves
# control.capnp to local clients) <-> the data-plane thread (libevent loop,
# owns the link engine). Channel: a SOCK_SEQPACKET socketpair made by the
# router before seccomp, one capnp message per packet.
#
# Direction control -> data plane (ControlCommand): fds: 0. Any number, each
# with a fresh id; at most 16 in flight (the control thread refuses more).
# Direction data plane -> control (ControlReply): fds: 0. Exactly one per
# command, carrying its id. The data-plane thread treats a malformed
# command as fatal (the control thread is the same program, so it is a bug),
# and validates every field of a well-formed one as operator input (npub,
# address and transport come from a local client).
# Read queries never cross: they are answered from the published snapshot.
@0x9240d6178b52cce3;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fips::schema");

using Control = import "control.capnp";

struct ControlCommand {
  id @0 :UInt64;
  union {
    connect :group {
      npub @1 :Text;
      address @2 :Text;
      transport @3 :Text;
    }
    disconnect :group {
      npub @4 :Text;
    }
    probe :group {
      npub @5 :Text;
      startLookup @6 :Bool;
      ownedSessionMs @7 :UInt64;  # as control.capnp probe @19
      teardown @8 :Bool;
    }
  }
}

struct ControlReply {
  id @0 :UInt64;
  result @1 :Control.CommandResult;
  probe @2 :Control.ProbeReport;  # set for a probe command
}
