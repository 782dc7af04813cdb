// SPDX-License-Identifier: MIT
// RuleMonitor (see rule-monitor.h).
#include "tun-helper/rule-monitor.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>

#include <linux/rtnetlink.h>

#include <spdlog/spdlog.h>

#include "privsep/log.h"

#include "tun-helper/tun-error.h"

namespace fips::tunhelper {

RuleMonitor::RuleMonitor(privsep::EventBase& base, std::function<void()> onChange)
    : sock_(mnl_socket_open(NETLINK_ROUTE)), onChange_(std::move(onChange)) {
  if (!sock_) throw TunError("rule monitor: netlink socket: " + std::string(std::strerror(errno)));
  if (mnl_socket_bind(sock_.get(), 1U << (RTNLGRP_IPV6_RULE - 1), MNL_SOCKET_AUTOPID) < 0) {
    throw TunError("rule monitor: join RTNLGRP_IPV6_RULE: " + std::string(std::strerror(errno)));
  }
  event_.reset(event_new(base.get(), mnl_socket_get_fd(sock_.get()), EV_READ | EV_PERSIST,
                         &RuleMonitor::onReadable, this));
  event_add(event_.get(), nullptr);
}

void RuleMonitor::onReadable(evutil_socket_t fd, short, void* arg) {
  auto* self = static_cast<RuleMonitor*>(arg);
  bool changed = false;
  // The notifications only say "look again"; drain them all, then look once.
  for (;;) {
    char buf[8192];
    ssize_t n = ::recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
    if (n > 0) {
      changed = true;
      continue;
    }
    if (n < 0 && errno == ENOBUFS) {
      changed = true;  // the socket overran: some notifications are lost, so look anyway
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      spdlog::warn("rule monitor: recv: {}", std::strerror(errno));
    }
    break;
  }
  if (!changed) return;
  // No exception crosses libevent's C callback.
  try {
    self->onChange_();
  } catch (const std::exception& e) {
    privsep::fatal("rule monitor: {}", e.what());
  } catch (...) {
    privsep::fatal("rule monitor: unknown exception");
  }
}

}  // namespace fips::tunhelper
