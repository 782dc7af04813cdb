// SPDX-License-Identifier: MIT
// TunDevice: fips-router's end of fips0 (FIPS spec 05 §1). The tun-helper
// created the device (IFF_TUN | IFF_NO_PI) and handed the fd over; the
// router reads it non-blocking from its libevent loop, a batch of packets
// per readiness event, and writes the packets the mesh node core delivers.
// Runs in fips-router under seccomp (read, write and fcntl only); packets
// read are local but unvalidated and go to MeshNode::onTunPacket.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "privsep/libevent.h"

#include "lib/unique-fd.h"
#include "router/mesh/tun-io.h"

namespace fips::router {

struct TunCounters {
  uint64_t packetsIn = 0;
  uint64_t packetsOut = 0;
  uint64_t writeDrops = 0;  // the kernel refused the write (queue full, device gone)
};

class TunDevice final : public mesh::TunIo {
 public:
  // Called for each packet read; the span is writable and valid during the call.
  using PacketHandler = std::function<void(std::span<uint8_t>)>;
  // Called once after each batch of reads (flush what the packets queued).
  using BatchDone = std::function<void()>;

  // Packets read per readiness event before returning to the loop.
  static constexpr size_t READ_BATCH = 64;
  // Read buffer: the largest TUN MTU we accept (bytes).
  static constexpr size_t MAX_PACKET = 65535;

  TunDevice(privsep::EventBase& base, UniqueFd fd, PacketHandler onPacket, BatchDone onBatch);
  TunDevice(const TunDevice&) = delete;
  TunDevice& operator=(const TunDevice&) = delete;
  ~TunDevice() override = default;

  // mesh::TunIo: one packet to fips0; dropped (counted) if the kernel refuses.
  void writeTun(std::span<const uint8_t> packet) override;
  const TunCounters& counters() const { return counters_; }

 private:
  static void onReadable(evutil_socket_t, short, void* arg);
  void readBatch();

  UniqueFd fd_;
  PacketHandler onPacket_;
  BatchDone onBatch_;
  std::vector<uint8_t> buffer_;
  privsep::EventPtr event_;
  TunCounters counters_;
};

}  // namespace fips::router
