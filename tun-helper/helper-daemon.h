// SPDX-License-Identifier: MIT
// fips-tun-helper's process logic: takes its slice from the supervisor,
// creates and configures the TUN interface, narrows its privileges to
// CAP_NET_ADMIN+CAP_NET_RAW, hands the TUN fd to the router, and removes the
// interface at shutdown. Runs in fips-tun-helper (privileged). The router is
// less privileged: it may only acknowledge the fd; anything else is fatal.
#pragma once

#include <memory>

#include "privsep/allow-table.h"
#include "privsep/channel.h"
#include "privsep/libevent.h"
#include "privsep/supervisor-link.h"

#include "lib/unique-fd.h"
#include "tun-helper/rule-monitor.h"
#include "tun-helper/tun-interface.h"
#include "tun.capnp.h"

namespace fips::tunhelper {

// Not copyable or movable.
class HelperDaemon {
 public:
  explicit HelperDaemon(privsep::EventBase& base);
  HelperDaemon(const HelperDaemon&) = delete;
  HelperDaemon& operator=(const HelperDaemon&) = delete;

  // 0 after a clean stop, 1 if the interface could not be created.
  int exitStatus() const { return exitStatus_; }

 private:
  enum class State : uint32_t { WAITING, FD_SENT, DONE };

  void onConfigure(schema::SupervisorRequest::Configure::Reader configure);
  void bindDnsSocket(schema::TunConfig::Reader slice);
  // The IPv6 rules changed: puts the guard rule back ahead of any catch-all.
  void onRulesChanged();
  void onRouterMessage(capnp::MessageReader& reader);
  void stop();
  static void onSignal(evutil_socket_t, short, void* arg);

  privsep::EventBase& base_;
  privsep::Channel router_;
  privsep::SupervisorLink supervisor_;
  std::unique_ptr<TunInterface> interface_;
  std::unique_ptr<RuleMonitor> ruleMonitor_;
  UniqueFd dnsSocket_;     // a privileged DNS port, until handed to the router
  UniqueFd dnsTcpSocket_;  // its TCP listener, likewise
  State state_ = State::WAITING;
  privsep::AllowTable<bool, 1> allow_;
  privsep::EventPtr sigterm_;
  privsep::EventPtr sigint_;
  int exitStatus_ = 0;
};

}  // namespace fips::tunhelper
