// SPDX-License-Identifier: MIT
// The supervisor's run loop: starts the children, hands each its config
// slice, restarts transport workers that die, and stops the suite on
// SIGTERM/SIGINT or when the router or tun-helper dies (ARCHITECTURE.md
// "Failure and restart"). Runs in `fips` (root); it never parses network
// input, and treats every child as less privileged than itself.
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

#include <spdlog/spdlog.h>

#include "privsep/allow-table.h"
#include "privsep/channel.h"
#include "privsep/config/config-loader.h"
#include "privsep/libevent.h"
#include "privsep/privdrop.h"
#include "privsep/supervisor/node-identity.h"

#include "supervisor.capnp.h"

namespace fips::privsep::supervisor {

// Everything the supervisor needs to start the suite.
struct SupervisorSettings {
  config::LoadResult loaded;              // the validated config (secrets wiped after use)
  std::optional<std::string> configFile;  // -c FILE, re-read on SIGHUP
  NodeIdentity identity;                  // resolved before the loop starts
  UserIds user;                           // node.user, resolved
};

// The running suite. Not copyable or movable.
class Supervisor {
 public:
  explicit Supervisor(SupervisorSettings settings);
  ~Supervisor();
  Supervisor(const Supervisor&) = delete;
  Supervisor& operator=(const Supervisor&) = delete;

  // Starts every child and runs until the suite stops. Returns the process
  // exit status: 0 after SIGTERM/SIGINT, 1 when the router or tun-helper died.
  int run();

 private:
  enum class ChildState : uint32_t { STARTING, CONFIGURED, RUNNING };
  enum class Kind { ROUTER, TUN_HELPER, TRANSPORT };
  using EventAllowTable = AllowTable<schema::ChildEvent::Which, 2>;

  struct Child {
    Supervisor* owner = nullptr;
    Kind kind;
    std::string name;    // "router", "tun-helper", "udp", "udp/main"
    std::string binary;  // "fips-router", ...
    pid_t pid = -1;
    std::unique_ptr<Channel> channel;
    ChildState state = ChildState::STARTING;
    std::unique_ptr<EventAllowTable> allow;
    std::chrono::steady_clock::time_point startedAt;
    std::chrono::milliseconds backoff{100};
    EventPtr restartTimer;
    std::string instance;  // transport instance name ("" when unnamed)
    bool stopRequested = false;
  };

  void startAll();
  void startChild(Child& child, const UniqueFd& peerEnd);
  void startTransport(Child& child);
  void onChildEvent(Child& child, capnp::MessageReader& reader, std::vector<UniqueFd>& fds);
  void onHello(Child& child, schema::ChildEvent::Hello::Reader hello);
  void flushPendingAttach();
  spdlog::level::level_enum logLevel() const;
  void reapChildren();
  void onChildExit(Child& child, int status);
  void scheduleRestart(Child& child);
  void reload();
  void stopAll(int exitStatus);
  void stopOthers();
  void stopChild(Child& child);
  void finish();
  Child* findChild(pid_t pid);
  Child* router();

  static void signalTrampoline(evutil_socket_t sig, short, void* arg);
  static void restartTrampoline(evutil_socket_t, short, void* arg);
  static void killTrampoline(evutil_socket_t, short, void* arg);
  static void routerGraceTrampoline(evutil_socket_t, short, void* arg);

  SupervisorSettings settings_;
  EventBase base_;
  std::string binDir_;
  std::vector<std::unique_ptr<Child>> children_;
  std::vector<EventPtr> signalEvents_;
  // Router ends of transport channels waiting for the router to be running.
  std::vector<std::pair<std::string, UniqueFd>> pendingAttach_;
  EventPtr killTimer_;
  EventPtr routerGraceTimer_;  // stops the others when a stopping router hangs
  std::string controlPath_;    // "" when there is no control socket
  std::string controlError_;   // why it could not be bound ("" when bound or disabled)
  UniqueFd controlFd_;         // listening; handed to the router with its configure
  bool stopping_ = false;
  bool routerGraceOver_ = false;  // ROUTER_GRACE ran out while stopping
  bool tunCreated_ = false;       // the tun-helper reported its interface up
  int exitStatus_ = 0;
};

}  // namespace fips::privsep::supervisor
