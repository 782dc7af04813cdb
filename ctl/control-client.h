// SPDX-License-Identifier: MIT
// ControlClient: fipsctl's connection to the router's control service
// (control.capnp, Cap'n Proto RPC over the control socket). Runs in fipsctl
// as the invoking user; the daemon's answers are data to print.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include <capnp/rpc-twoparty.h>
#include <kj/async-io.h>

#include "control.capnp.h"

namespace fips::ctl {

// A failure to reach or talk to the daemon: one line, without "fipsctl: ".
class ControlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ControlClient {
 public:
  // Seconds a request may take before it is abandoned (the reference's 5 s).
  static constexpr int TIMEOUT_SECS = 5;

  // Connects to the socket at `path`. Throws ControlError ("cannot connect
  // to PATH: No such file or directory (is the FIPS daemon running?)").
  explicit ControlClient(const std::string& path);

  schema::FipsControl::Client& control() { return control_; }

  // Waits for `request`'s response, at most TIMEOUT_SECS. Throws
  // ControlError when the daemon hangs up, fails the call or is too slow.
  template <typename Response>
  Response wait(kj::Promise<Response>&& request) {
    try {
      return io_.provider->getTimer()
          .timeoutAfter(TIMEOUT_SECS * kj::SECONDS, kj::mv(request))
          .wait(io_.waitScope);
    } catch (const kj::Exception& e) {
      throw ControlError(describe(e));
    }
  }

 private:
  static std::string describe(const kj::Exception& e);

  kj::AsyncIoContext io_;
  kj::Own<kj::AsyncIoStream> stream_;
  std::unique_ptr<capnp::TwoPartyClient> client_;
  schema::FipsControl::Client control_;
};

}  // namespace fips::ctl
