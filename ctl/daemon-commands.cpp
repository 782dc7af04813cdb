// SPDX-License-Identifier: MIT
// fipsctl daemon subcommands (see daemon-commands.h).
#include "ctl/daemon-commands.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string_view>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

#include "ctl/cli-checks.h"
#include "ctl/control-client.h"
#include "ctl/mesh-render.h"
#include "ctl/metrics-render.h"
#include "ctl/mmp-render.h"
#include "ctl/probe-render.h"
#include "ctl/report.h"
#include "ctl/routing-render.h"
#include "ctl/show-render.h"
#include "ctl/socket-choice.h"
#include "ctl/stats-render.h"
#include "ctl/status-render.h"
#include "lib/identity/nip19.h"
#include "router/control/json/command-json.h"
#include "router/control/json/probe-json.h"
#include "router/control/probe/probe-job.h"
#include "router/dns/host-map.h"

namespace fips::ctl {

namespace {

using Action = std::function<int(const DaemonOptions&)>;
using router::control::json::ConnectAnswer;
using router::control::json::connectJson;
using router::control::json::connectText;
using router::control::json::dialStateText;

uint64_t nowUnixMs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

// Monotonic ms, the clock ProbeJob is given.
uint64_t steadyMs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

int print(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  if (std::fflush(stdout) != 0) return reportError("cannot write to stdout");
  return 0;
}

int printJson(const Json& doc) {
  return print(doc.dump(2) + "\n");
}

// Runs `body` with a client connected to the socket socket-choice.h
// picks; daemon, config and connection errors become one line and status 1.
int withClient(const DaemonOptions& o, const std::function<int(ControlClient&)>& body) {
  try {
    ControlClient client(chooseControlSocket(socketSourcesFromProcess(o.socketPath, o.configPath)));
    return body(client);
  } catch (const ControlError& e) {
    return reportError(e.what());
  }
}

CLI::App* leaf(CLI::App& parent, const std::string& name, const std::string& help, DaemonOptions& o,
               Action action) {
  CLI::App* command = parent.add_subcommand(name, help);
  command->add_flag("--json", o.json, "Print one JSON document");
  o.actions.emplace_back(command, std::move(action));
  return command;
}

// A subcommand of the reference whose layer this build does not have yet.
void unavailable(CLI::App& parent, const std::string& name, const std::string& help,
                 const std::string& what, DaemonOptions& o) {
  // "show sessions", but "probe" for a top-level command (the report adds "fipsctl: ").
  const std::string full = parent.get_parent() == nullptr ? name : parent.get_name() + " " + name;
  CLI::App* command = leaf(parent, name, help, o, [full, what](const DaemonOptions&) {
    return reportError(fmt::format("{}: not available yet in this build ({})", full, what));
  });
  command->allow_extras();
}

int showStatus(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().statusRequest().send());
    auto status = response.getStatus();
    return o.json ? printJson(statusJson(status)) : print(statusTable(status));
  });
}

// fipsctl status: four answers of one node on one screen.
int status(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto node = c.wait(c.control().statusRequest().send());
    auto peers = c.wait(c.control().peersRequest().send());
    auto tree = c.wait(c.control().treeRequest().send());
    auto sessions = c.wait(c.control().sessionsRequest().send());
    if (o.json) {
      return print(statusScreenJson(node.getStatus(), peers.getPeers(), tree.getTree(),
                                    sessions.getSessions()));
    }
    return print(statusScreen(node.getStatus(), peers.getPeers(), tree.getTree(),
                              sessions.getSessions(), nowUnixMs()));
  });
}

int showPeers(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().peersRequest().send());
    auto peers = response.getPeers();
    return o.json ? printJson(peersJson(peers)) : print(peersTable(peers, nowUnixMs()));
  });
}

int showLinks(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().linksRequest().send());
    auto links = response.getLinks();
    return o.json ? printJson(linksJson(links)) : print(linksTable(links, nowUnixMs()));
  });
}

int showTransports(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().transportsRequest().send());
    auto list = response.getTransports();
    return o.json ? printJson(transportsJson(list)) : print(transportsTable(list));
  });
}

// Link-layer MMP is carried per peer in the peers answer.
int showMmp(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().peersRequest().send());
    auto peers = response.getPeers();
    return o.json ? printJson(mmpJson(peers)) : print(mmpTable(peers));
  });
}

int showTree(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().treeRequest().send());
    auto tree = response.getTree();
    return o.json ? printJson(treeJson(tree)) : print(treeTable(tree));
  });
}

int showBloom(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().bloomRequest().send());
    auto bloom = response.getBloom();
    return o.json ? printJson(bloomJson(bloom)) : print(bloomTable(bloom));
  });
}

int showCache(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().cacheRequest().send());
    auto cache = response.getCache();
    return o.json ? printJson(cacheJson(cache)) : print(cacheTable(cache));
  });
}

int showSessions(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().sessionsRequest().send());
    auto sessions = response.getSessions();
    return o.json ? printJson(sessionsJson(sessions)) : print(sessionsTable(sessions, nowUnixMs()));
  });
}

int showConnections(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().connectionsRequest().send());
    auto list = response.getConnections();
    return o.json ? printJson(connectionsJson(list)) : print(connectionsTable(list));
  });
}

int showRouting(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().routingRequest().send());
    auto routing = response.getRouting();
    return o.json ? printJson(routingJson(routing)) : print(routingTable(routing, nowUnixMs()));
  });
}

int showIdentityCache(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().identityCacheRequest().send());
    auto cache = response.getIdentityCache();
    return o.json ? printJson(identityCacheJson(cache)) : print(identityCacheTable(cache));
  });
}

// Whether the ACL file at `path` exists on this host (fipsctl runs beside
// the daemon); UNKNOWN when stat fails otherwise (e.g. EACCES).
AclFileState aclFileState(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return AclFileState::PRESENT;
  return errno == ENOENT ? AclFileState::MISSING : AclFileState::UNKNOWN;
}

int aclShow(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().aclRequest().send());
    auto acl = response.getAcl();
    return o.json ? printJson(aclJson(acl)) : print(aclTable(acl, aclFileState));
  });
}

int statsMetrics(const DaemonOptions& o) {
  // --json asks for JSON too: with another format it is a contradiction,
  // refused rather than one of them silently winning.
  if (o.json && !o.format.empty() && o.format != "json") {
    return reportError(
        fmt::format("--json conflicts with --format {}: give one of them", o.format));
  }
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().metricsRequest().send());
    auto counters = response.getCounters();
    if (o.json || o.format == "json") return printJson(metricsJson(counters));
    if (o.format == "prometheus") return print(metricsPrometheus(counters));
    return print(metricsTable(counters));
  });
}

std::string hostsPath() {
  const char* env = std::getenv("FIPS_HOSTS_FILE");
  return env != nullptr && *env != '\0' ? env : router::dns::DEFAULT_HOSTS_PATH;
}

// o.peer as the daemon takes it: an npub as is, a hosts-file name as its
// npub, anything else unchanged (the daemon resolves its peers' config
// aliases and refuses what is none of these).
std::string peerForDaemon(const DaemonOptions& o) {
  return resolvePeer(o.peer, hostsPath()).value_or(o.peer);
}

int statsList(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().statsListRequest().send());
    auto list = response.getList();
    return o.json ? printJson(statsListJson(list)) : print(statsListTable(list));
  });
}

int statsPeers(const DaemonOptions& o) {
  return withClient(o, [&](ControlClient& c) {
    auto response = c.wait(c.control().statsPeersRequest().send());
    auto peers = response.getPeers();
    return o.json ? printJson(statsPeersJson(peers)) : print(statsPeersTable(peers));
  });
}

// stdout's width in columns when it is a terminal, else 0 (no limit).
size_t terminalColumns() {
  winsize size{};
  if (::isatty(STDOUT_FILENO) == 0 || ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

int statsHistory(const DaemonOptions& o) {
  const std::string npub = o.peer.empty() ? "" : peerForDaemon(o);
  return withClient(o, [&](ControlClient& c) {
    auto request = c.control().statsHistoryRequest();
    request.setMetric(o.metric);
    request.setPeer(npub);
    request.setWindow(o.window);
    request.setGranularity(o.granularity);
    auto response = c.wait(request.send());
    auto result = response.getResult();
    if (result.isError()) {
      const std::string error = result.getError().cStr();
      if (npub.empty() && error.starts_with(o.metric + " is a per-peer metric")) {
        return reportError(fmt::format(
            "{} is a per-peer metric: give --peer <npub or hosts name> (see fipsctl stats peers)",
            o.metric));
      }
      return reportError(error);
    }
    auto series = result.getSeries();
    if (o.json) return printJson(seriesJson(series));
    if (o.plot) return print(seriesPlot(series, terminalColumns()));
    return print(seriesTable(series));
  });
}

// The peer's npub as the daemon resolved it (a configured alias as its
// npub), else `sent` (a daemon that does not say).
std::string resolvedNpub(schema::CommandResult::Reader result, const std::string& sent) {
  return result.getNpub().size() > 0 ? std::string(result.getNpub().cStr()) : sent;
}

int connect(const DaemonOptions& o) {
  const bool ipTransport = o.transport == "udp" || o.transport.starts_with("udp/") ||
                           o.transport == "tcp" || o.transport.starts_with("tcp/") ||
                           o.transport == "ethernet";
  if (ipTransport && isFipsMeshAddress(o.address)) {
    return reportError(
        fmt::format("'{}' is a FIPS mesh address (fd00::/8), not a reachable {} "
                    "endpoint; give the peer's routable address and port",
                    o.address, o.transport));
  }
  const std::string key = peerForDaemon(o);
  return withClient(o, [&](ControlClient& c) {
    auto request = c.control().connectRequest();
    request.setNpub(key);
    request.setAddress(o.address);
    request.setTransport(o.transport);
    auto response = c.wait(request.send());
    auto result = response.getResult();
    if (result.isError()) return reportError(result.getError().cStr());
    const ConnectAnswer answer{result.getRefreshed(), result.getAlreadyConnected(),
                               result.getAlreadyConnecting(), result.getDialState().cStr()};
    const std::string npub = resolvedNpub(result, key);
    if (o.json) return printJson(connectJson(npub, o.address, o.transport, answer));
    return print(connectText(npub, o.address, o.transport, answer) + "\n");
  });
}

int disconnect(const DaemonOptions& o) {
  const std::string key = peerForDaemon(o);
  return withClient(o, [&](ControlClient& c) {
    auto request = c.control().disconnectRequest();
    request.setNpub(key);
    auto response = c.wait(request.send());
    auto result = response.getResult();
    if (result.isError()) return reportError(result.getError().cStr());
    const std::string npub = resolvedNpub(result, key);
    if (o.json) {
      Json out{
          {"npub", npub}, {"disconnected", true}, {"dial_cancelled", result.getDialCancelled()}};
      if (result.getDialCancelled()) out["dial_state"] = result.getDialState().cStr();
      return printJson(out);
    }
    if (result.getDialCancelled()) {
      return print(fmt::format("cancelled the pending dial to {} ({}) and its retries\n", npub,
                               dialStateText(result.getDialState().cStr())));
    }
    return print(fmt::format("disconnected {}\n", npub));
  });
}

// One probe call (or the teardown call, when due), its answer given to
// `job` (at the steady clock's ms). False (reported) on a daemon error.
bool probeOnce(ControlClient& c, const std::string& npub, router::control::ProbeJob& job) {
  auto request = c.control().probeRequest();
  request.setNpub(npub);
  request.setStartLookup(job.startLookup());
  request.setOwnedSessionMs(job.ownedSessionMs());
  const bool teardown = job.teardownDue();
  request.setTeardown(teardown);
  auto response = c.wait(request.send());
  auto result = response.getResult();
  if (result.isError()) {
    reportError(result.getError().cStr());
    return false;
  }
  if (teardown) {
    job.onTeardown(response.getReport().getCleanup().cStr(), steadyMs());
  } else {
    job.onReport(response.getReport(), steadyMs());
  }
  return true;
}

// Runs the probe as a ProbeJob (router/control/probe/probe-job.h: the stage
// budgets, a call every 250 ms while a stage runs, then the teardown of
// the session it opened, a tick later); --timeout bounds the whole probe
// instead. A probe stopped by ^C leaves its session to idle out.
int probe(const DaemonOptions& o) {
  const std::string key = peerForDaemon(o);
  return withClient(o, [&](ControlClient& c) {
    router::control::ProbeJob job(steadyMs(), uint64_t{o.probeTimeoutSecs} * 1000);
    if (!probeOnce(c, key, job)) return 1;
    while (!job.finished()) {
      const uint64_t now = steadyMs();
      if (job.nextPollMs() > now) {
        std::this_thread::sleep_for(std::chrono::milliseconds(job.nextPollMs() - now));
      }
      if (!probeOnce(c, key, job)) return 1;
    }
    auto done = job.report();
    const uint64_t elapsed = job.elapsedMs(steadyMs());
    const int status = job.overall() == "ok" ? 0 : 1;
    const int printed = o.json ? printJson(router::control::json::probeJson(done, elapsed))
                               : print(probeText(done, elapsed));
    return printed != 0 ? printed : status;
  });
}

void addShow(CLI::App& app, DaemonOptions& o) {
  CLI::App* show = app.add_subcommand("show", "Show node information");
  show->require_subcommand(1);
  leaf(*show, "status", "Node status overview", o, showStatus);
  leaf(*show, "peers", "Authenticated peers", o, showPeers);
  leaf(*show, "links", "Active links", o, showLinks);
  leaf(*show, "transports", "Transport instances", o, showTransports);
  leaf(*show, "tree", "Spanning tree state", o, showTree);
  leaf(*show, "sessions", "End-to-end sessions", o, showSessions);
  leaf(*show, "bloom", "Bloom filter state", o, showBloom);
  leaf(*show, "mmp", "MMP metrics summary", o, showMmp);
  leaf(*show, "cache", "Coordinate cache", o, showCache);
  leaf(*show, "connections", "Pending handshake connections", o, showConnections);
  leaf(*show, "routing", "Routing summary", o, showRouting);
  leaf(*show, "identity-cache", "Identity cache entries", o, showIdentityCache);
  unavailable(*show, "native-flows", "Native datagram API flows", "the native API is not built", o);
}

void addStats(CLI::App& app, DaemonOptions& o) {
  CLI::App* stats = app.add_subcommand("stats", "Node statistics");
  stats->require_subcommand(1);
  CLI::App* metrics = leaf(*stats, "metrics", "Current counter values", o, statsMetrics);
  metrics->add_option("--format", o.format, "Output format (--json is --format json)")
      ->check(CLI::IsMember({"table", "json", "prometheus"}))
      ->default_str("table");
  leaf(*stats, "list", "List history metrics", o, statsList);
  leaf(*stats, "peers", "Peers tracked in stats history", o, statsPeers);
  CLI::App* history = leaf(*stats, "history", "A metric's time series", o, statsHistory);
  history->add_option("metric", o.metric, "Metric name (see `fipsctl stats list`)")->required();
  history
      ->add_option("--peer", o.peer,
                   "npub, or a name from /etc/fips/hosts (required for per-peer metrics)")
      ->check(notSecretKey);
  history
      ->add_option("--window", o.window,
                   "Window: <N>s, <N>m or <N>h (less than one step, e.g. 0s, gives no samples)")
      ->capture_default_str();
  history->add_option("--granularity", o.granularity, "1s (fast ring) or 1m (slow ring)")
      ->capture_default_str();
  history->add_flag("--plot", o.plot,
                    "Draw a Unicode block sparkline (fitted to the terminal; --json wins)");
}

}  // namespace

void addDaemonCommands(CLI::App& app, DaemonOptions& o) {
  leaf(app, "status", "The node at a glance: identity, tree, peers, sessions", o, status);
  addShow(app, o);
  CLI::App* acl = app.add_subcommand("acl", "Peer ACL");
  acl->require_subcommand(1);
  leaf(*acl, "show", "Loaded peer ACL state", o, aclShow);
  addStats(app, o);
  CLI::App* conn = leaf(app, "connect", "Dial a peer once over a transport", o, connect);
  conn->add_option("peer", o.peer, "npub, a name from /etc/fips/hosts or a configured peer alias")
      ->required()
      ->check(notSecretKey);
  conn->add_option("address", o.address, "Transport address, e.g. 192.0.2.1:2121")->required();
  conn->add_option("transport", o.transport, "Transport: udp or udp/<instance>")->required();
  CLI::App* disc = leaf(app, "disconnect", "Drop a peer's link", o, disconnect);
  disc->add_option("peer", o.peer, "npub, a name from /etc/fips/hosts or a configured peer alias")
      ->required()
      ->check(notSecretKey);
  CLI::App* probeCommand = leaf(app, "probe", "Diagnose reachability of a mesh endpoint", o, probe);
  probeCommand
      ->add_option("target", o.peer, "npub, a name from /etc/fips/hosts or a configured peer alias")
      ->required()
      ->check(notSecretKey);
  probeCommand->add_option("--timeout", o.probeTimeoutSecs,
                           "Seconds to wait for discovery (default: the node's lookup ladder)");
}

std::optional<int> runDaemonCommand(const DaemonOptions& options) {
  for (const auto& [command, action] : options.actions) {
    if (command->parsed()) return action(options);
  }
  return std::nullopt;
}

std::optional<std::string> resolvePeer(const std::string& peer, const std::string& path) {
  if (identity::hasNpubPrefix(peer)) return peer;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<std::string> warnings;  // bad lines are skipped, as the router does
  const auto hosts = router::dns::parseHostsFile(text.str(), path, warnings);
  const auto* key = hosts.find(peer);
  if (key == nullptr) return std::nullopt;
  return identity::encodeNpub(*key);
}

bool isFipsMeshAddress(const std::string& address) {
  auto isUla = [](const std::string& text) {
    in6_addr addr{};
    return ::inet_pton(AF_INET6, text.c_str(), &addr) == 1 && addr.s6_addr[0] == 0xfd;
  };
  if (isUla(address)) return true;
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size()) return false;
  const std::string port = address.substr(colon + 1);
  if (port.find_first_not_of("0123456789") != std::string::npos) return false;
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return isUla(host);
}

}  // namespace fips::ctl
