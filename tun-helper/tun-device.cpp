// SPDX-License-Identifier: MIT
// Creation and deletion of the TUN device.
// Runs in fips-tun-helper (privileged). Acts on the config-derived name only; never reads
// from the TUN fd.
#include "tun-helper/tun-device.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <string_view>
#include <sys/ioctl.h>
#include <utility>

#include <linux/if.h>
#include <linux/if_tun.h>

#include "tun-helper/link-config.h"
#include "tun-helper/netlink.h"
#include "tun-helper/tun-error.h"

namespace fips::tunhelper {
namespace {

constexpr const char* TUN_CLONE_DEVICE = "/dev/net/tun";

// Flags for TUNSETIFF. Offloads (IFF_VNET_HDR, then TUNSETVNETHDRSZ and TUNSETOFFLOAD in
// attach()) would be added here; the router must then expect a virtio_net_hdr per packet.
constexpr int TUN_FLAGS = IFF_TUN | IFF_NO_PI | IFF_TUN_EXCL;

std::string failurePrefix(const std::string& name) {
  return "cannot create TUN " + name + ": ";
}

// The kernel's dev_valid_name(), plus no '%' (which would ask the kernel to pick a number).
bool validName(std::string_view name) {
  if (name.empty() || name.size() >= IFNAMSIZ || name == "." || name == "..") return false;
  return std::none_of(name.begin(), name.end(), [](char c) {
    return c == '/' || c == ':' || c == '%' || std::isspace(static_cast<unsigned char>(c)) != 0;
  });
}

UniqueFd openCloneDevice(const std::string& name) {
  UniqueFd fd(::open(TUN_CLONE_DEVICE, O_RDWR | O_CLOEXEC));
  if (fd) return fd;
  int err = errno;
  std::string text = failurePrefix(name) + TUN_CLONE_DEVICE + ": " + errnoText(err);
  if (err == ENOENT || err == ENODEV || err == ENXIO) text += " (is the tun module loaded?)";
  throw TunError(text);
}

// The message for EBUSY from an exclusive TUNSETIFF: a link of that name exists.
std::string nameTakenText(const std::string& name) {
  std::string text = failurePrefix(name) + "an interface named " + name + " already exists";
  NetlinkSocket nl;
  std::optional<LinkInfo> link = findLink(nl, name);
  if (link && !link->kind.empty()) text += " (kind " + link->kind + ")";
  return text + "; remove it or choose another tun.name";
}

void attach(int fd, const std::string& name) {
  ifreq ifr{};
  std::memcpy(ifr.ifr_name, name.data(), name.size());
  ifr.ifr_flags = static_cast<short>(TUN_FLAGS);
  if (::ioctl(fd, TUNSETIFF, &ifr) == 0) return;
  int err = errno;
  if (err == EBUSY) throw TunError(nameTakenText(name));
  throw TunError(failurePrefix(name) + errnoText(err));
}

}  // namespace

TunDevice::TunDevice(std::string name) : name_(std::move(name)) {
  if (!validName(name_)) {
    throw TunError(failurePrefix(name_) +
                   "invalid interface name (1-15 characters, no '/', ':', '%' or spaces)");
  }
  fd_ = openCloneDevice(name_);
  attach(fd_.get(), name_);
  NetlinkSocket nl;
  std::optional<LinkInfo> link = findLink(nl, name_);
  if (!link) throw TunError(failurePrefix(name_) + "the new link vanished");
  ifindex_ = link->index;
}

TunDevice::~TunDevice() {
  try {
    remove();
  } catch (...) {
    // Nothing to report to from a destructor; closing fd_ still removes the link unless
    // another process holds the fd, and the supervisor's cleanup (removeLinkByName) covers
    // that case.
  }
}

void TunDevice::remove() {
  if (!fd_) return;
  NetlinkSocket nl;
  deleteLink(nl, {ifindex_, name_});
  fd_.reset();
}

}  // namespace fips::tunhelper
