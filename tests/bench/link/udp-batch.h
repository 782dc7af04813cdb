// SPDX-License-Identifier: MIT
// The benchmark's own UDP batching, used by the raw probes and by the direct
// (hop short-circuited) link nodes: datagrams queued into one packed buffer
// and sent with one sendmmsg (or one UDP_SEGMENT sendmsg when GSO is on), and
// received with one recvmmsg (split by UDP_GRO segment size when GRO is on).
// Developer tool; datagrams come from the benchmark's own processes.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <netinet/in.h>
#include <span>
#include <sys/socket.h>
#include <vector>

namespace fips::bench {

// Datagrams per sendmmsg/recvmmsg, as the UDP transport's default batch.
inline constexpr size_t BATCH = 32;

// Up to BATCH outgoing datagrams. Not copyable.
class TxBatch {
 public:
  TxBatch(int fd, bool gso);
  TxBatch(const TxBatch&) = delete;
  TxBatch& operator=(const TxBatch&) = delete;

  // Copies one datagram in; flushes first if it would not fit.
  void queue(const sockaddr_in& to, std::span<const uint8_t> payload);
  // Sends what is queued (blocking socket, like the raw probe); returns the
  // number of datagrams the kernel accepted.
  size_t flush();

 private:
  bool oneSegmentRun() const;
  size_t flushGso();
  size_t flushMmsg();

  int fd_;
  bool gso_;
  std::vector<uint8_t> buffer_;
  size_t used_ = 0;
  size_t count_ = 0;
  std::array<size_t, BATCH> offsets_{};
  std::array<size_t, BATCH> lengths_{};
  std::array<sockaddr_in, BATCH> to_{};
  std::array<iovec, BATCH> iovs_{};
  std::array<mmsghdr, BATCH> msgs_{};
};

// One recvmmsg worth of datagrams. Not copyable.
class RxBatch {
 public:
  // With `gro`, sets UDP_GRO on fd and splits coalesced datagrams.
  RxBatch(int fd, bool gro);
  RxBatch(const RxBatch&) = delete;
  RxBatch& operator=(const RxBatch&) = delete;

  // One recvmmsg. With `wait`, blocks for the first datagram up to the
  // socket's SO_RCVTIMEO; otherwise returns at once. Returns the number of
  // kernel datagrams (GRO super-datagrams count once).
  size_t receive(bool wait);
  // Calls fn(const sockaddr_in& from, std::span<const uint8_t> payload) for
  // every datagram of the last receive(), GRO segments one by one.
  template <typename Fn>
  void forEach(Fn&& fn) const {
    for (size_t i = 0; i < got_; ++i) {
      const std::span<const uint8_t> all(buffers_[i].data(), msgs_[i].msg_len);
      const size_t seg = segments_[i] == 0 ? all.size() : segments_[i];
      for (size_t at = 0; at < all.size(); at += seg) {
        fn(peers_[i], all.subspan(at, std::min(seg, all.size() - at)));
      }
    }
  }

 private:
  // UDP_GRO segment size of datagram i of the last receive(), 0 if none.
  size_t segmentSize(size_t i);

  int fd_;
  bool gro_;
  size_t got_ = 0;
  std::vector<std::vector<uint8_t>> buffers_;
  std::array<sockaddr_in, BATCH> peers_{};
  std::array<iovec, BATCH> iovs_{};
  std::array<mmsghdr, BATCH> msgs_{};
  std::array<size_t, BATCH> segments_{};
  std::vector<uint8_t> controls_;
};

// SO_RCVTIMEO, so a waiting receive() returns for timers.
void setReceiveTimeout(int fd, int ms);

}  // namespace fips::bench
