// SPDX-License-Identifier: MIT
// TunError, the one error type of TUN device setup, and the errno wording its messages use.
// Runs in fips-tun-helper (privileged). Messages name only config-derived values (interface
// name, address, MTU); no packet payload is ever read.
#pragma once

#include <stdexcept>
#include <string>

namespace fips::tunhelper {

// A failed startup or configuration step of the TUN interface (STYLE 2.7, operational error).
// what() is one line naming the operation and the cause, e.g.
// "cannot create TUN fips0: operation not permitted (needs CAP_NET_ADMIN)". The caller prints
// it and exits (or reports it to the router as tunFailed).
class TunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The lower-case description of errno value `err` ("operation not permitted"), followed by a
// hint when the cause is one an operator fixes the same way everywhere (EPERM: "(needs
// CAP_NET_ADMIN)").
std::string errnoText(int err);

}  // namespace fips::tunhelper
