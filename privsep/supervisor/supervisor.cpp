// SPDX-License-Identifier: MIT
// The supervisor's run loop (see supervisor.h). Runs in `fips` as root. Its
// only inputs are the config (already validated), signals, and messages from
// its children, which are checked against a per-child allow table.
#include "privsep/supervisor/supervisor.h"

#include <algorithm>
#include <cstring>
#include <signal.h>
#include <sys/wait.h>

#include <capnp/message.h>

#include <fmt/format.h>

#include "privsep/control-path.h"
#include "privsep/log.h"
#include "privsep/supervisor/config-check.h"
#include "privsep/supervisor/control-socket.h"
#include "privsep/supervisor/identity-setup.h"
#include "privsep/supervisor/slices.h"
#include "privsep/supervisor/spawn.h"

#include "tun-helper/tun-interface.h"

namespace fips::privsep::supervisor {

namespace {

using Which = schema::ChildEvent::Which;
constexpr auto MAX_BACKOFF = std::chrono::milliseconds(30000);
constexpr auto MIN_BACKOFF = std::chrono::milliseconds(100);
constexpr auto STABLE_UPTIME = std::chrono::seconds(60);
constexpr timeval KILL_AFTER = {4, 500000};  // SIGKILL what is left after 4.5 s
// How long the others wait for a stopping router before they are stopped
// anyway: a hung (or SIGSTOPped) router must not cost them their graceful stop.
constexpr timeval ROUTER_GRACE = {2, 0};

ChannelLimits childLimits() {
  ChannelLimits limits;
  limits.maxBytes = 4096;
  limits.maxFds = 0;  // a child never sends fds to the supervisor
  limits.traversalWords = 512;
  return limits;
}

const char* whichName(Which which) {
  switch (which) {
    case Which::HELLO:
      return "hello";
    case Which::READY:
      return "ready";
  }
  return "unknown";
}

timeval toTimeval(std::chrono::milliseconds ms) {
  return timeval{static_cast<time_t>(ms.count() / 1000),
                 static_cast<suseconds_t>((ms.count() % 1000) * 1000)};
}

std::string describeStatus(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("signal ") + ::strsignal(WTERMSIG(status));
  return "status " + std::to_string(status);
}

}  // namespace

Supervisor::Supervisor(SupervisorSettings settings)
    : settings_(std::move(settings)), binDir_(childBinaryDir()) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGCHLD}) {
    EventPtr ev(evsignal_new(base_.get(), sig, &Supervisor::signalTrampoline, this));
    if (!ev || event_add(ev.get(), nullptr) != 0) throw std::runtime_error("evsignal_new failed");
    signalEvents_.push_back(std::move(ev));
  }
  killTimer_.reset(evtimer_new(base_.get(), &Supervisor::killTrampoline, this));
  routerGraceTimer_.reset(evtimer_new(base_.get(), &Supervisor::routerGraceTrampoline, this));
}

Supervisor::~Supervisor() = default;

int Supervisor::run() {
  startAll();
  base_.dispatch();
  return exitStatus_;
}

void Supervisor::startAll() {
  const auto& cfg = settings_.loaded.config;
  if (cfg.node.control.enabled) {
    // As the reference: a control socket that cannot be bound (another node
    // listens there) is a warning, and the node runs without one.
    const std::string path = cfg.node.control.socketPath.value_or(defaultControlSocketPath());
    try {
      controlFd_ = bindControlSocket(path);
      controlPath_ = path;
      spdlog::info("control socket {}", controlPath_);
    } catch (const std::runtime_error& e) {
      controlError_ = e.what();
      spdlog::warn("failed to bind the control socket: {}", controlError_);
    }
  }
  auto add = [&](Kind kind, std::string name, std::string binary, std::string instance) {
    auto child = std::make_unique<Child>();
    child->owner = this;
    child->kind = kind;
    child->name = std::move(name);
    child->binary = std::move(binary);
    child->instance = std::move(instance);
    children_.push_back(std::move(child));
    return children_.back().get();
  };
  Child* routerChild = add(Kind::ROUTER, "router", "fips-router", "");
  if (cfg.tun.enabled) {
    Child* tun = add(Kind::TUN_HELPER, "tun-helper", "fips-tun-helper", "");
    auto [routerEnd, tunEnd] = makeChannelPair();
    startChild(*tun, tunEnd);
    startChild(*routerChild, routerEnd);
  } else {
    startChild(*routerChild, UniqueFd());
  }
  for (const auto& [instance, udp] : cfg.transports.udp) {
    std::string name = instance.empty() ? "udp" : "udp/" + instance;
    startTransport(*add(Kind::TRANSPORT, name, "fips-transport-udp", instance));
  }
  for (const auto& [instance, tcp] : cfg.transports.tcp) {
    std::string name = instance.empty() ? "tcp" : "tcp/" + instance;
    startTransport(*add(Kind::TRANSPORT, name, "fips-transport-tcp", instance));
  }
}

void Supervisor::startChild(Child& child, const UniqueFd& peerEnd) {
  auto [supervisorEnd, childEnd] = makeChannelPair();
  child.pid = spawnChild(binDir_, child.binary, childEnd, peerEnd);
  child.state = ChildState::STARTING;
  child.stopRequested = false;
  child.startedAt = std::chrono::steady_clock::now();
  child.allow = std::make_unique<EventAllowTable>(std::array<AllowRule<Which>, 2>{{
      {Which::HELLO, stateBit(ChildState::STARTING), 1},
      {Which::READY, stateBit(ChildState::CONFIGURED), 1},
  }});
  child.channel = std::make_unique<Channel>(
      base_, std::move(supervisorEnd), "fips<-" + child.name, childLimits(),
      [this, &child](capnp::MessageReader& r, std::vector<UniqueFd>& fds) {
        onChildEvent(child, r, fds);
      },
      [&child] { spdlog::debug("{}: channel closed", child.name); });
  spdlog::info("started {} (pid {})", child.name, child.pid);
}

// A transport worker gets a fresh router<->worker channel on every start;
// the router's end travels to the router once the router is running.
void Supervisor::startTransport(Child& child) {
  auto [routerEnd, workerEnd] = makeChannelPair();
  startChild(child, workerEnd);
  pendingAttach_.push_back({child.name, std::move(routerEnd)});
  flushPendingAttach();
}

void Supervisor::flushPendingAttach() {
  Child* r = router();
  if (r == nullptr || r->state != ChildState::RUNNING || !r->channel) return;
  for (auto& [name, fd] : pendingAttach_) {
    capnp::MallocMessageBuilder msg;
    msg.initRoot<schema::SupervisorRequest>().setAttachTransport(name);
    r->channel->send(msg, fd.get());
  }
  pendingAttach_.clear();
}

void Supervisor::onChildEvent(Child& child, capnp::MessageReader& reader,
                              std::vector<UniqueFd>& /*fds*/) {
  auto event = reader.getRoot<schema::ChildEvent>();
  Which which = event.which();
  if (!child.allow->admit(which, static_cast<uint32_t>(child.state))) {
    fatal("{}: message '{}' not allowed in state {}", child.channel->name(), whichName(which),
          static_cast<int>(child.state));
  }
  switch (which) {
    case Which::HELLO:
      onHello(child, event.getHello());
      break;
    case Which::READY:
      child.state = ChildState::RUNNING;
      spdlog::info("{} ready", child.name);
      if (child.kind == Kind::TUN_HELPER) tunCreated_ = true;
      if (child.kind == Kind::ROUTER) flushPendingAttach();
      break;
  }
}

void Supervisor::onHello(Child& child, schema::ChildEvent::Hello::Reader hello) {
  schema::Role expected = child.kind == Kind::ROUTER       ? schema::Role::ROUTER
                          : child.kind == Kind::TUN_HELPER ? schema::Role::TUN_HELPER
                                                           : schema::Role::TRANSPORT;
  if (hello.getRole() != expected || static_cast<pid_t>(hello.getPid()) != child.pid) {
    fatal("{}: hello from the wrong process (role {}, pid {})", child.channel->name(),
          static_cast<int>(hello.getRole()), hello.getPid());
  }
  capnp::MallocMessageBuilder msg;
  auto configure = msg.initRoot<schema::SupervisorRequest>().initConfigure();
  configure.setLogLevel(toSchemaLevel(logLevel()));
  const auto& cfg = settings_.loaded.config;
  switch (child.kind) {
    case Kind::ROUTER:
      fillRouterSlice(configure.initRouter(), cfg, settings_.identity, settings_.user, controlPath_,
                      controlError_);
      break;
    case Kind::TUN_HELPER:
      fillTunSlice(configure.initTun(), cfg, settings_.identity, settings_.user);
      break;
    case Kind::TRANSPORT:
      if (child.binary == "fips-transport-tcp") {
        fillTcpSlice(configure.initTransport(), cfg.transports.tcp.at(child.instance),
                     child.instance, settings_.user);
      } else {
        fillUdpSlice(configure.initTransport(), cfg.transports.udp.at(child.instance),
                     child.instance, settings_.user);
      }
      break;
  }
  // The router's configure carries the control socket's listening fd; the
  // router owns it from then on (it dies with the suite, never restarts).
  const bool withControl = child.kind == Kind::ROUTER && controlFd_;
  child.channel->send(msg, withControl ? controlFd_.get() : -1, Channel::WIPE_AFTER_SEND);
  if (withControl) controlFd_.reset();
  wipeMessage(msg);
  child.state = ChildState::CONFIGURED;
}

spdlog::level::level_enum Supervisor::logLevel() const {
  return effectiveLogLevel(configuredLogLevel(settings_.loaded.config));
}

void Supervisor::signalTrampoline(evutil_socket_t sig, short, void* arg) {
  auto* self = static_cast<Supervisor*>(arg);
  switch (sig) {
    case SIGTERM:
    case SIGINT:
      spdlog::info("{}: stopping", ::strsignal(static_cast<int>(sig)));
      self->stopAll(0);
      break;
    case SIGHUP:
      self->reload();
      break;
    case SIGCHLD:
      self->reapChildren();
      break;
    default:
      break;
  }
}

void Supervisor::reapChildren() {
  int status = 0;
  pid_t pid;
  while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
    if (Child* child = findChild(pid)) onChildExit(*child, status);
  }
}

void Supervisor::onChildExit(Child& child, int status) {
  child.pid = -1;
  child.channel.reset();
  if (stopping_) {
    spdlog::info("{} stopped ({})", child.name, describeStatus(status));
    stopOthers();
    return;
  }
  if (child.kind == Kind::TRANSPORT) {
    spdlog::warn("{} worker exited ({}); restarting", child.name, describeStatus(status));
    scheduleRestart(child);
    return;
  }
  spdlog::error("{} exited ({}): stopping the suite", child.name, describeStatus(status));
  stopAll(1);
}

void Supervisor::scheduleRestart(Child& child) {
  if (std::chrono::steady_clock::now() - child.startedAt >= STABLE_UPTIME) {
    child.backoff = MIN_BACKOFF;
  }
  if (!child.restartTimer) {
    child.restartTimer.reset(evtimer_new(base_.get(), &Supervisor::restartTrampoline, &child));
  }
  timeval delay = toTimeval(child.backoff);
  evtimer_add(child.restartTimer.get(), &delay);
  spdlog::info("{} restart in {} ms", child.name, child.backoff.count());
  child.backoff = std::min(child.backoff * 2, MAX_BACKOFF);
}

void Supervisor::restartTrampoline(evutil_socket_t, short, void* arg) {
  auto* child = static_cast<Child*>(arg);
  Supervisor* self = child->owner;
  if (!self->stopping_) self->startTransport(*child);
}

void Supervisor::reload() {
  config::LoadResult fresh;
  try {
    fresh = loadCheckedConfig(settings_.configFile);
  } catch (const config::ConfigError& e) {
    for (const auto& w : e.warnings()) spdlog::warn("{}", w);
    spdlog::error("SIGHUP: keeping the running config: {}", e.what());
    return;
  }
  for (const auto& w : fresh.warnings) spdlog::warn("{}", w);
  auto& old = settings_.loaded.config;
  auto& now = fresh.config;
  const std::string files = fresh.loadedFiles.empty()
                                ? std::string("no config file")
                                : fmt::format("{}", fmt::join(fresh.loadedFiles, ", "));
  // The running config holds no secrets (wiped once the children had them):
  // compare without the fresh ones, and name node.identity.nsec only when it
  // gives another key.
  if (now.node.identity.nsec && otherIdentity(settings_.identity, *now.node.identity.nsec)) {
    spdlog::warn(
        "SIGHUP: {}: node.identity.nsec changed: not applied, takes effect after a restart", files);
  }
  config::wipeSecrets(now);
  for (const auto& key : restartOnlyChanges(old, now)) {
    spdlog::warn("SIGHUP: {}: {} changed: not applied, takes effect after a restart", files, key);
  }
  if (old.peers != now.peers) {
    spdlog::warn("SIGHUP: {}: peers changed: not applied at runtime by this version (issue #4)",
                 files);
  }
  old.node.logLevel = now.node.logLevel;
  auto level = logLevel();
  spdlog::default_logger()->set_level(level);
  for (auto& child : children_) {
    if (!child->channel || child->state != ChildState::RUNNING) continue;
    capnp::MallocMessageBuilder msg;
    msg.initRoot<schema::SupervisorRequest>().setSetLogLevel(toSchemaLevel(level));
    child->channel->send(msg);
  }
  spdlog::info("SIGHUP: config re-read, log level {}", spdlog::level::to_string_view(level));
}

void Supervisor::stopAll(int exitStatus) {
  if (stopping_) return;
  stopping_ = true;
  exitStatus_ = exitStatus;
  for (auto& child : children_) {
    if (child->restartTimer) evtimer_del(child->restartTimer.get());
  }
  evtimer_add(killTimer_.get(), &KILL_AFTER);
  Child* r = router();
  if (r != nullptr && r->pid > 0) {
    stopChild(*r);  // the others follow once it is gone (onChildExit) or after ROUTER_GRACE
    evtimer_add(routerGraceTimer_.get(), &ROUTER_GRACE);
  } else {
    stopOthers();
  }
}

// The router goes first so that its Disconnects still have transports to
// leave by; then every other child. Once ROUTER_GRACE is over and the router
// is all that is left, it is killed rather than waited for.
void Supervisor::stopOthers() {
  Child* hungRouter = nullptr;
  bool others = false;
  for (auto& child : children_) {
    if (child->pid <= 0) continue;
    if (child->kind == Kind::ROUTER) {
      hungRouter = child.get();
      continue;
    }
    others = true;
    stopChild(*child);
  }
  if (hungRouter == nullptr && !others) {
    finish();
  } else if (hungRouter != nullptr && !others && routerGraceOver_) {
    spdlog::warn("{} (pid {}) did not stop: SIGKILL", hungRouter->name, hungRouter->pid);
    ::kill(hungRouter->pid, SIGKILL);
  }
}

void Supervisor::stopChild(Child& child) {
  if (child.stopRequested) return;
  child.stopRequested = true;
  if (child.channel && child.state == ChildState::RUNNING) {
    capnp::MallocMessageBuilder msg;
    msg.initRoot<schema::SupervisorRequest>().setShutdown();
    child.channel->send(msg);
  } else {
    ::kill(child.pid, SIGTERM);
  }
}

void Supervisor::routerGraceTrampoline(evutil_socket_t, short, void* arg) {
  auto* self = static_cast<Supervisor*>(arg);
  Child* r = self->router();
  if (r == nullptr || r->pid <= 0) return;  // it stopped in time; the others follow it
  self->routerGraceOver_ = true;
  spdlog::warn("{} (pid {}) has not stopped after {} s: stopping the others", r->name, r->pid,
               ROUTER_GRACE.tv_sec);
  self->stopOthers();
}

void Supervisor::killTrampoline(evutil_socket_t, short, void* arg) {
  auto* self = static_cast<Supervisor*>(arg);
  for (auto& child : self->children_) {
    if (child->pid <= 0) continue;
    spdlog::warn("{} (pid {}) did not stop: SIGKILL", child->name, child->pid);
    ::kill(child->pid, SIGKILL);
  }
}

// Every child is gone: make sure no TUN device of ours outlives the suite
// (an interface of that name that the tun-helper never created is left alone).
void Supervisor::finish() {
  evtimer_del(killTimer_.get());
  evtimer_del(routerGraceTimer_.get());
  if (!controlPath_.empty()) removeControlSocket(controlPath_);
  const auto& tun = settings_.loaded.config.tun;
  if (tunCreated_) {
    try {
      if (tunhelper::removeStaleInterface(tun.name)) spdlog::info("removed {}", tun.name);
    } catch (const std::exception& e) {
      spdlog::error("removing {}: {}", tun.name, e.what());
    }
  }
  base_.loopExit();
}

Supervisor::Child* Supervisor::findChild(pid_t pid) {
  for (auto& child : children_) {
    if (child->pid == pid) return child.get();
  }
  return nullptr;
}

Supervisor::Child* Supervisor::router() {
  for (auto& child : children_) {
    if (child->kind == Kind::ROUTER) return child.get();
  }
  return nullptr;
}

}  // namespace fips::privsep::supervisor
