// SPDX-License-Identifier: MIT
// rtnetlink request/ACK exchange over libmnl.
// Runs in fips-tun-helper (privileged). Sends config-derived requests; parses replies from the
// kernel only (bounds-checked with libmnl's helpers all the same).
#include "tun-helper/netlink.h"

#include <cerrno>
#include <cstring>
#include <ctime>

#include "tun-helper/tun-error.h"

namespace fips::tunhelper {
namespace {

// Big enough for one part of any dump (libmnl's recommended dump buffer size).
constexpr size_t RECV_BUFFER_SIZE = 32768;

std::string withWhat(std::string_view what, std::string_view detail) {
  std::string text(what);
  text += ": ";
  text += detail;
  return text;
}

// Attributes laid out in [begin, end), each checked by mnl_attr_ok before use.
void walkAttrs(const char* begin, const char* end, const NetlinkAttrFn& fn) {
  const auto* attr = reinterpret_cast<const nlattr*>(begin);
  while (mnl_attr_ok(attr, static_cast<int>(end - reinterpret_cast<const char*>(attr)))) {
    fn(*attr);
    attr = mnl_attr_next(attr);
  }
}

NetlinkStatus errorStatus(const nlmsghdr& nlh) {
  if (mnl_nlmsg_get_payload_len(&nlh) < sizeof(nlmsgerr)) {
    return {EPROTO, "truncated NLMSG_ERROR"};
  }
  const auto* err = static_cast<const nlmsgerr*>(mnl_nlmsg_get_payload(&nlh));
  NetlinkStatus status{-err->error, {}};
  if (status.err == 0 || (nlh.nlmsg_flags & NLM_F_ACK_TLVS) == 0) return status;
  size_t offset = sizeof(nlmsgerr);
  if ((nlh.nlmsg_flags & NLM_F_CAPPED) == 0) offset += err->msg.nlmsg_len - sizeof(nlmsghdr);
  forEachAttr(nlh, offset, [&status](const nlattr& attr) {
    if (mnl_attr_get_type(&attr) == NLMSGERR_ATTR_MSG &&
        mnl_attr_validate(&attr, MNL_TYPE_NUL_STRING) == 0) {
      status.kernelMessage = mnl_attr_get_str(&attr);
    }
  });
  return status;
}

NetlinkStatus doneStatus(const nlmsghdr& nlh) {
  if (mnl_nlmsg_get_payload_len(&nlh) < sizeof(int)) return {};
  int value = 0;
  std::memcpy(&value, mnl_nlmsg_get_payload(&nlh), sizeof(value));
  return {-value, {}};
}

}  // namespace

NetlinkMessage::NetlinkMessage(uint16_t type, uint16_t flags)
    : nlh_(mnl_nlmsg_put_header(buf_.data())) {
  nlh_->nlmsg_type = type;
  nlh_->nlmsg_flags = static_cast<uint16_t>(NLM_F_REQUEST | NLM_F_ACK | flags);
}

void NetlinkMessage::putU32(uint16_t type, uint32_t value) {
  if (!mnl_attr_put_u32_check(nlh_, buf_.size(), type, value)) {
    throw std::logic_error("netlink request buffer too small");
  }
}

void NetlinkMessage::putBytes(uint16_t type, const void* data, size_t len) {
  if (!mnl_attr_put_check(nlh_, buf_.size(), type, len, data)) {
    throw std::logic_error("netlink request buffer too small");
  }
}

void NetlinkMessage::putString(uint16_t type, std::string_view value) {
  std::string terminated(value);
  if (!mnl_attr_put_strz_check(nlh_, buf_.size(), type, terminated.c_str())) {
    throw std::logic_error("netlink request buffer too small");
  }
}

NetlinkSocket::NetlinkSocket() : sock_(mnl_socket_open(NETLINK_ROUTE)), recvBuf_(RECV_BUFFER_SIZE) {
  if (!sock_) throw TunError("open rtnetlink socket: " + errnoText(errno));
  if (mnl_socket_bind(sock_.get(), 0, MNL_SOCKET_AUTOPID) < 0) {
    throw TunError("bind rtnetlink socket: " + errnoText(errno));
  }
  // Extended ACKs only add the kernel's reason to error messages; without them (old kernels)
  // requests work the same, so a failure here is not an error.
  int one = 1;
  (void)mnl_socket_setsockopt(sock_.get(), NETLINK_EXT_ACK, &one, sizeof(one));
  (void)mnl_socket_setsockopt(sock_.get(), NETLINK_CAP_ACK, &one, sizeof(one));
  portId_ = mnl_socket_get_portid(sock_.get());
  seq_ = static_cast<uint32_t>(std::time(nullptr));
}

NetlinkStatus NetlinkSocket::transact(NetlinkMessage& msg, std::string_view what,
                                      const NetlinkReplyFn& onReply) {
  nlmsghdr* nlh = msg.header();
  nlh->nlmsg_seq = ++seq_;
  if (mnl_socket_sendto(sock_.get(), nlh, nlh->nlmsg_len) < 0) {
    throw TunError(withWhat(what, "send to rtnetlink: " + errnoText(errno)));
  }
  return receive(nlh->nlmsg_seq, what, onReply);
}

void NetlinkSocket::request(NetlinkMessage& msg, std::string_view what,
                            const NetlinkReplyFn& onReply) {
  NetlinkStatus status = transact(msg, what, onReply);
  if (status.err != 0) throw TunError(describeFailure(what, status));
}

NetlinkStatus NetlinkSocket::receive(uint32_t seq, std::string_view what,
                                     const NetlinkReplyFn& onReply) {
  for (;;) {
    ssize_t got = mnl_socket_recvfrom(sock_.get(), recvBuf_.data(), recvBuf_.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      throw TunError(withWhat(what, "receive from rtnetlink: " + errnoText(errno)));
    }
    int len = static_cast<int>(got);
    const auto* nlh = reinterpret_cast<const nlmsghdr*>(recvBuf_.data());
    for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
      // Leftovers of an earlier request (abandoned by an exception) carry another seq.
      if (!mnl_nlmsg_seq_ok(nlh, seq) || !mnl_nlmsg_portid_ok(nlh, portId_)) continue;
      if (nlh->nlmsg_type == NLMSG_ERROR) return errorStatus(*nlh);
      if (nlh->nlmsg_type == NLMSG_DONE) return doneStatus(*nlh);
      if (nlh->nlmsg_type >= NLMSG_MIN_TYPE && onReply) onReply(*nlh);
    }
  }
}

std::string describeFailure(std::string_view what, const NetlinkStatus& status) {
  std::string text = withWhat(what, errnoText(status.err));
  if (!status.kernelMessage.empty()) text += " (kernel: " + status.kernelMessage + ")";
  return text;
}

void forEachAttr(const nlmsghdr& nlh, size_t headerLen, const NetlinkAttrFn& fn) {
  size_t alignedHeader = (headerLen + MNL_ALIGNTO - 1) & ~size_t{MNL_ALIGNTO - 1};
  if (alignedHeader > mnl_nlmsg_get_payload_len(&nlh)) return;
  walkAttrs(static_cast<const char*>(mnl_nlmsg_get_payload_offset(&nlh, headerLen)),
            static_cast<const char*>(mnl_nlmsg_get_payload_tail(&nlh)), fn);
}

void forEachNested(const nlattr& nest, const NetlinkAttrFn& fn) {
  const auto* begin = static_cast<const char*>(mnl_attr_get_payload(&nest));
  walkAttrs(begin, begin + mnl_attr_get_payload_len(&nest), fn);
}

}  // namespace fips::tunhelper
