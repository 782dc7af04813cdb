// SPDX-License-Identifier: MIT
// sendmmsg/recvmmsg and GSO/GRO batching of bench-link (see udp-batch.h).
// Runs in the benchmark's sender and receiver processes.
#include "tests/bench/link/udp-batch.h"

#include <cerrno>
#include <cstring>
#include <netinet/udp.h>
#include <sys/time.h>
#include <system_error>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

namespace fips::bench {

namespace {

constexpr size_t TX_BUFFER = 65000;  // one GSO send stays under the 64 KiB UDP limit
constexpr size_t RX_BUFFER = 65536;
constexpr size_t RX_CONTROL = CMSG_SPACE(sizeof(int));

}  // namespace

TxBatch::TxBatch(int fd, bool gso) : fd_(fd), gso_(gso), buffer_(TX_BUFFER) {}

void TxBatch::queue(const sockaddr_in& to, std::span<const uint8_t> payload) {
  if (count_ == BATCH || used_ + payload.size() > buffer_.size()) flush();
  std::memcpy(buffer_.data() + used_, payload.data(), payload.size());
  offsets_[count_] = used_;
  lengths_[count_] = payload.size();
  to_[count_] = to;
  used_ += payload.size();
  ++count_;
}

size_t TxBatch::flush() {
  if (count_ == 0) return 0;
  const size_t sent = gso_ && oneSegmentRun() ? flushGso() : flushMmsg();
  count_ = 0;
  used_ = 0;
  return sent;
}

// True when everything queued can go as one UDP_SEGMENT send: one
// destination, every datagram but the last of the first one's size.
bool TxBatch::oneSegmentRun() const {
  if (count_ < 2) return false;
  for (size_t i = 1; i < count_; ++i) {
    const bool sameTo =
        to_[i].sin_addr.s_addr == to_[0].sin_addr.s_addr && to_[i].sin_port == to_[0].sin_port;
    const bool fits = i + 1 == count_ ? lengths_[i] <= lengths_[0] : lengths_[i] == lengths_[0];
    if (!sameTo || !fits) return false;
  }
  return true;
}

size_t TxBatch::flushGso() {
  iovec iov{buffer_.data(), used_};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(uint16_t))] = {};
  msghdr msg{};
  msg.msg_name = &to_[0];
  msg.msg_namelen = sizeof(sockaddr_in);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_UDP;
  c->cmsg_type = UDP_SEGMENT;
  c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
  const auto segment = static_cast<uint16_t>(lengths_[0]);
  std::memcpy(CMSG_DATA(c), &segment, sizeof(segment));
  return ::sendmsg(fd_, &msg, 0) > 0 ? count_ : 0;
}

size_t TxBatch::flushMmsg() {
  for (size_t i = 0; i < count_; ++i) {
    iovs_[i] = {buffer_.data() + offsets_[i], lengths_[i]};
    msgs_[i] = {};
    msgs_[i].msg_hdr.msg_name = &to_[i];
    msgs_[i].msg_hdr.msg_namelen = sizeof(sockaddr_in);
    msgs_[i].msg_hdr.msg_iov = &iovs_[i];
    msgs_[i].msg_hdr.msg_iovlen = 1;
  }
  size_t done = 0;
  while (done < count_) {
    const int n = ::sendmmsg(fd_, msgs_.data() + done, static_cast<unsigned>(count_ - done), 0);
    if (n <= 0) break;  // loopback drops rather than blocks; count what went
    done += static_cast<size_t>(n);
  }
  return done;
}

RxBatch::RxBatch(int fd, bool gro)
    : fd_(fd),
      gro_(gro),
      buffers_(BATCH, std::vector<uint8_t>(RX_BUFFER)),
      controls_(BATCH * RX_CONTROL) {
  if (gro_) {
    const int one = 1;
    if (::setsockopt(fd_, IPPROTO_UDP, UDP_GRO, &one, sizeof(one)) != 0) {
      throw std::system_error(errno, std::generic_category(), "setsockopt(UDP_GRO)");
    }
  }
}

size_t RxBatch::receive(bool wait) {
  for (size_t i = 0; i < BATCH; ++i) {
    iovs_[i] = {buffers_[i].data(), buffers_[i].size()};
    msgs_[i] = {};
    msgs_[i].msg_hdr.msg_name = &peers_[i];
    msgs_[i].msg_hdr.msg_namelen = sizeof(sockaddr_in);
    msgs_[i].msg_hdr.msg_iov = &iovs_[i];
    msgs_[i].msg_hdr.msg_iovlen = 1;
    if (gro_) {
      msgs_[i].msg_hdr.msg_control = controls_.data() + i * RX_CONTROL;
      msgs_[i].msg_hdr.msg_controllen = RX_CONTROL;
    }
  }
  const int n = ::recvmmsg(fd_, msgs_.data(), BATCH, wait ? MSG_WAITFORONE : MSG_DONTWAIT, nullptr);
  got_ = n > 0 ? static_cast<size_t>(n) : 0;
  for (size_t i = 0; i < got_; ++i) segments_[i] = segmentSize(i);
  return got_;
}

size_t RxBatch::segmentSize(size_t i) {
  if (!gro_) return 0;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msgs_[i].msg_hdr); c != nullptr;
       c = CMSG_NXTHDR(&msgs_[i].msg_hdr, c)) {
    if (c->cmsg_level == IPPROTO_UDP && c->cmsg_type == UDP_GRO) {
      int size = 0;
      std::memcpy(&size, CMSG_DATA(c), sizeof(size));
      return static_cast<size_t>(size);
    }
  }
  return 0;
}

void setReceiveTimeout(int fd, int ms) {
  const timeval tv{ms / 1000, (ms % 1000) * 1000};
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0) {
    throw std::system_error(errno, std::generic_category(), "setsockopt(SO_RCVTIMEO)");
  }
}

}  // namespace fips::bench
