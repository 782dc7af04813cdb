// SPDX-License-Identifier: MIT
// TunDevice: creates the layer-3 TUN device and owns it until it is deleted.
// Runs in fips-tun-helper (privileged). The name comes from config (tun.name); the device's
// packets are never read here (the fd goes to fips-router).
#pragma once

#include <cstdint>
#include <string>

#include "lib/unique-fd.h"

namespace fips::tunhelper {

// A TUN device opened with IFF_TUN | IFF_NO_PI (raw IPv6 packets on the fd, no header) and
// IFF_TUN_EXCL: it is always new, never an existing device taken over. Deleting it (remove()
// or the destructor) removes the link with RTM_DELLINK, so it disappears even while another
// process (fips-router) still holds a duplicate of the fd. Resource type: not copyable or
// movable. The network namespace is the caller's at construction, and must stay the same.
class TunDevice {
 public:
  // Creates TUN `name`. Throws TunError with a one-line cause: invalid name, no /dev/net/tun,
  // missing CAP_NET_ADMIN, name already taken (and by what kind of link), ...
  explicit TunDevice(std::string name = "fips0");
  // Deletes the link like remove(), ignoring errors (call remove() to see them).
  ~TunDevice();
  TunDevice(const TunDevice&) = delete;
  TunDevice& operator=(const TunDevice&) = delete;

  // The TUN fd, borrowed (still owned here): send it to the router with SCM_RIGHTS. -1 after
  // remove().
  int fd() const { return fd_.get(); }
  // Kernel interface index (as in ifinfomsg / RTA_OIF).
  uint32_t ifindex() const { return ifindex_; }
  const std::string& name() const { return name_; }

  // Deletes the link and closes the fd. Idempotent. Throws TunError if the kernel refuses.
  void remove();

 private:
  std::string name_;
  UniqueFd fd_;
  uint32_t ifindex_ = 0;
};

}  // namespace fips::tunhelper
