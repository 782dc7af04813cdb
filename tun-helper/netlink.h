// SPDX-License-Identifier: MIT
// An rtnetlink socket (libmnl) that sends one request at a time and collects the kernel's
// replies and ACK, plus a small builder for request messages.
// Runs in fips-tun-helper (privileged). Requests carry config-derived values only; replies come
// from the kernel, the one peer of a NETLINK_ROUTE socket.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <linux/netlink.h>

#include <libmnl/libmnl.h>

namespace fips::tunhelper {

struct MnlSocketDeleter {
  void operator()(mnl_socket* sock) const { mnl_socket_close(sock); }
};
// Lives here, not beside UniqueFd in privsep/, while fips-tun-helper is the
// only libmnl user; it moves there when fips-gateway needs it (STYLE 2.8).
using MnlSocketPtr = std::unique_ptr<mnl_socket, MnlSocketDeleter>;

// One rtnetlink request being built: netlink header, family header, attributes. The buffer is
// sized for the small requests this helper makes; overflowing it is a bug (std::logic_error).
class NetlinkMessage {
 public:
  // type: RTM_*. flags: NLM_F_* to add to NLM_F_REQUEST | NLM_F_ACK (always set).
  NetlinkMessage(uint16_t type, uint16_t flags);
  NetlinkMessage(const NetlinkMessage&) = delete;
  NetlinkMessage& operator=(const NetlinkMessage&) = delete;

  // Appends the zeroed family header (ifinfomsg, ifaddrmsg, rtmsg, fib_rule_hdr) and returns it
  // for filling in. Call once, before any attribute.
  template <class T>
  T& putHeader() {
    return *static_cast<T*>(mnl_nlmsg_put_extra_header(nlh_, sizeof(T)));
  }
  void putU32(uint16_t type, uint32_t value);
  void putBytes(uint16_t type, const void* data, size_t len);
  // Appends `value` as a NUL-terminated string attribute (IFLA_IFNAME).
  void putString(uint16_t type, std::string_view value);

  nlmsghdr* header() { return nlh_; }

 private:
  alignas(nlmsghdr) std::array<char, 512> buf_{};
  nlmsghdr* nlh_;
};

// The kernel's answer to one request: 0 or a positive errno, and the extended-ACK text the
// kernel attached, if any ("Nexthop device is not up").
struct NetlinkStatus {
  int err = 0;
  std::string kernelMessage;
};

// Receives each reply message of a request (RTM_NEWLINK for RTM_GETLINK, one per route of a
// dump, ...) before the final ACK or NLMSG_DONE.
using NetlinkReplyFn = std::function<void(const nlmsghdr&)>;

// A NETLINK_ROUTE socket in the caller's network namespace. Resource type: not copyable or
// movable. Requests are synchronous; no multicast groups are joined.
class NetlinkSocket {
 public:
  // Opens and binds the socket, asking for extended ACKs. Throws TunError.
  NetlinkSocket();
  NetlinkSocket(const NetlinkSocket&) = delete;
  NetlinkSocket& operator=(const NetlinkSocket&) = delete;

  // Sends msg and reads until its ACK, error or NLMSG_DONE, passing replies to onReply. A
  // kernel refusal is returned, not thrown; a socket failure throws TunError naming `what`.
  NetlinkStatus transact(NetlinkMessage& msg, std::string_view what,
                         const NetlinkReplyFn& onReply = {});
  // transact(), but a kernel refusal also throws TunError
  // "<what>: <errno text>[ (kernel: <extended ACK>)]".
  void request(NetlinkMessage& msg, std::string_view what, const NetlinkReplyFn& onReply = {});

 private:
  NetlinkStatus receive(uint32_t seq, std::string_view what, const NetlinkReplyFn& onReply);

  MnlSocketPtr sock_;
  uint32_t portId_ = 0;
  uint32_t seq_ = 0;
  std::vector<char> recvBuf_;
};

// The one-line message for a refused request: "<what>: <errno text>[ (kernel: ...)]".
std::string describeFailure(std::string_view what, const NetlinkStatus& status);

using NetlinkAttrFn = std::function<void(const nlattr&)>;

// Calls fn for each attribute that follows the family header (of `headerLen` bytes) of nlh.
void forEachAttr(const nlmsghdr& nlh, size_t headerLen, const NetlinkAttrFn& fn);

// Calls fn for each attribute nested inside `nest` (IFLA_LINKINFO, ...).
void forEachNested(const nlattr& nest, const NetlinkAttrFn& fn);

}  // namespace fips::tunhelper
