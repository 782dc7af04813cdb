// SPDX-License-Identifier: MIT
// TunDevice (see tun-device.h): non-blocking reads in batches, writes that
// never block the loop.
#include "router/daemon/tun-device.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include "privsep/log.h"

namespace fips::router {

TunDevice::TunDevice(privsep::EventBase& base, UniqueFd fd, PacketHandler onPacket,
                     BatchDone onBatch)
    : fd_(std::move(fd)),
      onPacket_(std::move(onPacket)),
      onBatch_(std::move(onBatch)),
      buffer_(MAX_PACKET) {
  const int flags = ::fcntl(fd_.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd_.get(), F_SETFL, flags | O_NONBLOCK) < 0)
    privsep::fatal("TUN: cannot make the fd non-blocking: {}", std::strerror(errno));
  event_.reset(
      event_new(base.get(), fd_.get(), EV_READ | EV_PERSIST, &TunDevice::onReadable, this));
  event_add(event_.get(), nullptr);
}

void TunDevice::onReadable(evutil_socket_t, short, void* arg) {
  static_cast<TunDevice*>(arg)->readBatch();
}

void TunDevice::readBatch() {
  for (size_t i = 0; i < READ_BATCH; ++i) {
    const ssize_t n = ::read(fd_.get(), buffer_.data(), buffer_.size());
    if (n <= 0) {
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        spdlog::warn("TUN read: {}", std::strerror(errno));
      break;
    }
    ++counters_.packetsIn;
    onPacket_(std::span<uint8_t>(buffer_.data(), static_cast<size_t>(n)));
  }
  onBatch_();
}

void TunDevice::writeTun(std::span<const uint8_t> packet) {
  const ssize_t n = ::write(fd_.get(), packet.data(), packet.size());
  if (n == static_cast<ssize_t>(packet.size())) {
    ++counters_.packetsOut;
  } else {
    ++counters_.writeDrops;
  }
}

}  // namespace fips::router
