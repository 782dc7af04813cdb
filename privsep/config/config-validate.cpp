// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: shape checks and the cross-field rules of
// the reference's Config::validate (spec 08 §3.5). Runs in the fips
// supervisor and fipsctl on operator-owned input; never prints secrets.
#include "privsep/config/config-validate.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <sys/un.h>

#include <fmt/format.h>

#include "privsep/config/address.h"
#include "privsep/config/did-you-mean.h"
#include "privsep/config/log-level.h"
#include "privsep/host-name.h"

#include "lib/crypto/secp256k1-context.h"
#include "lib/identity/nip19.h"

namespace fips::privsep::config {

namespace {

constexpr std::size_t MAX_IFNAME_CHARS = 15;  // IFNAMSIZ - 1
constexpr std::size_t MAX_USER_CHARS = 32;
// The longest path a Unix socket address holds: sun_path less its NUL (107
// bytes on Linux).
constexpr std::size_t MAX_UNIX_SOCKET_PATH_BYTES = sizeof(sockaddr_un::sun_path) - 1;
// Clock-skew grace on each side of a Nostr signal (reference nostr/signal.rs).
constexpr std::uint64_t FRESHNESS_SKEW_SECS = 60;
// tokio's Semaphore::MAX_PERMITS in the reference.
constexpr std::size_t MAX_SEMAPHORE_PERMITS = std::numeric_limits<std::size_t>::max() >> 3;
// RFC 8200: the kernel disables IPv6 on a link below this MTU.
constexpr std::uint16_t IPV6_MIN_MTU = 1280;
// The transport types of the reference's config language.
const std::vector<std::string>& transportTypes() {
  static const std::vector<std::string> types = {"udp", "tcp", "ethernet", "tor", "nym", "ble"};
  return types;
}

// Linux dev_valid_name().
bool isInterfaceName(std::string_view name) {
  if (name.empty() || name.size() > MAX_IFNAME_CHARS || name == "." || name == "..") return false;
  return std::none_of(name.begin(), name.end(), [](char c) {
    return c == '/' || c == ':' || c == '\0' || std::isspace(static_cast<unsigned char>(c));
  });
}

bool isUserName(std::string_view name) {
  if (name.empty() || name.size() > MAX_USER_CHARS || name.front() == '-') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

std::string instancePath(std::string_view type, const std::string& name, std::string_view key) {
  return name.empty() ? fmt::format("transports.{}.{}", type, key)
                      : fmt::format("transports.{}.{}.{}", type, name, key);
}

class Validator {
 public:
  Validator(const Config& config, const Origins& origins, const std::string& fallbackFile,
            const std::set<std::string>& alreadyReported, const BuildSupport* build,
            std::vector<std::string>& errors, std::vector<std::string>& warnings)
      : c_(config),
        origins_(origins),
        fallbackFile_(fallbackFile),
        alreadyReported_(alreadyReported),
        build_(build),
        errors_(errors),
        warnings_(warnings) {}

  void run() {
    checkNode();
    checkTunDns();
    checkTransports();
    checkPeers();
    checkGateway();
    checkNostrUse();
    checkLoopbackBind();
    checkLimits();
    if (build_ != nullptr) checkBuild();
  }

 private:
  // "FILE:LINE" of `path`, or of its nearest recorded ancestor.
  std::string locate(std::string path) const {
    for (;;) {
      if (auto it = origins_.find(path); it != origins_.end()) {
        return fmt::format("{}:{}", it->second.file, it->second.line);
      }
      const std::size_t cut = path.find_last_of(".[");
      if (cut == std::string::npos) return fmt::format("{}:1", fallbackFile_);
      path.resize(cut);
    }
  }

  // Whether the parser reported `path` or one of its ancestors.
  bool reported(std::string path) const {
    for (;;) {
      if (alreadyReported_.count(path) != 0) return true;
      const std::size_t cut = path.find_last_of(".[");
      if (cut == std::string::npos) return false;
      path.resize(cut);
    }
  }

  void error(const std::string& path, std::string_view reason) {
    if (reported(path)) return;
    errors_.push_back(fmt::format("{}: {}: {}", locate(path), path, reason));
  }

  void warn(const std::string& path, std::string_view reason) {
    warnings_.push_back(fmt::format("{}: {}: {}", locate(path), path, reason));
  }

  void expect(bool ok, const std::string& path, std::string_view value, std::string_view what) {
    if (!ok) error(path, fmt::format("{} is not {}", quoteValue(value), what));
  }

  void checkNode();
  void checkTunDns();
  void checkTransports();
  void checkPeers();
  void checkPeerAddress(const std::string& path, const PeerAddress& address);
  void checkGateway();
  void checkNostrUse();
  void checkLoopbackBind();
  void checkLimits();
  void checkBuild();
  bool built(const std::string& transport) const;
  std::string builtTransports() const;

  const Config& c_;
  const Origins& origins_;
  const std::string& fallbackFile_;
  const std::set<std::string>& alreadyReported_;
  const BuildSupport* build_;
  std::vector<std::string>& errors_;
  std::vector<std::string>& warnings_;
};

void Validator::checkNode() {
  const NodeConfig& n = c_.node;
  if (n.identity.nsec) {
    // The value is a secret: describe what is wrong, never quote it.
    const crypto::Secp256k1Context ctx;
    auto key = identity::parseSecretKey(ctx, *n.identity.nsec);
    if (!key.ok()) {
      error("node.identity.nsec", "is not a usable nsec1... or 64-hex secret key: " + key.error().message);
    }
  }
  const RateLimitConfig& r = n.rateLimit;
  for (auto [key, value] : {std::pair{"handshake_rate", r.handshakeRate},
                            std::pair{"handshake_resend_backoff", r.handshakeResendBackoff}}) {
    // inf (no limit) is accepted, as the reference does; NaN and <= 0 are not.
    if (std::isnan(value) || value <= 0) {
      error(fmt::format("node.rate_limit.{}", key),
            fmt::format("{} is not a positive number", value));
    }
  }
  expect(isUserName(n.user), "node.user", n.user, "a user name");
  // Too long to bind: the daemon runs without a control socket. A warning,
  // not an error: the reference starts with such a config too.
  if (n.control.socketPath && n.control.socketPath->size() > MAX_UNIX_SOCKET_PATH_BYTES) {
    warn("node.control.socket_path",
         fmt::format("{} is {} bytes, longer than the {} a Unix socket path holds: the node "
                     "runs without a control socket",
                     quoteValue(*n.control.socketPath), n.control.socketPath->size(),
                     MAX_UNIX_SOCKET_PATH_BYTES));
  }
  if (n.logLevel && !isKnownLogLevel(*n.logLevel)) {
    warn("node.log_level", fmt::format("{} is not trace, debug, info, warn or error (using info)",
                                       quoteValue(*n.logLevel)));
  }
}

void Validator::checkTunDns() {
  expect(isInterfaceName(c_.tun.name), "tun.name", c_.tun.name, "an interface name");
  if (c_.tun.mtu < IPV6_MIN_MTU) {
    error("tun.mtu",
          fmt::format("{} is below the IPv6 minimum link MTU of {}", c_.tun.mtu, IPV6_MIN_MTU));
  }
  expect(isIpAddress(c_.dns.bindAddr), "dns.bind_addr", c_.dns.bindAddr, "an IP address");
}

void Validator::checkTransports() {
  const TransportsConfig& t = c_.transports;
  for (const auto& [name, udp] : t.udp) {
    if (!udp.outboundOnly) {
      expect(isSocketAddress(udp.bindAddr), instancePath("udp", name, "bind_addr"), udp.bindAddr,
             "an address:port");
    }
    if (udp.externalAddr) {
      expect(isIpAddress(*udp.externalAddr) || isSocketAddress(*udp.externalAddr),
             instancePath("udp", name, "external_addr"), *udp.externalAddr,
             "an IP address or address:port");
    }
    // Smaller datagrams cannot carry an IPv6 packet after the 77 bytes of
    // mesh overhead (the reference's default, 1280, is this floor).
    if (udp.mtu < IPV6_MIN_MTU) {
      error(instancePath("udp", name, "mtu"),
            fmt::format("{} is below the IPv6 minimum link MTU of {}", udp.mtu, IPV6_MIN_MTU));
    }
  }
  for (const auto& [name, tcp] : t.tcp) {
    if (tcp.bindAddr) {
      expect(isSocketAddress(*tcp.bindAddr), instancePath("tcp", name, "bind_addr"), *tcp.bindAddr,
             "an address:port");
    }
    if (tcp.externalAddr) {
      expect(isIpAddress(*tcp.externalAddr) || isSocketAddress(*tcp.externalAddr),
             instancePath("tcp", name, "external_addr"), *tcp.externalAddr,
             "an IP address or address:port");
    }
  }
  for (const auto& [name, eth] : t.ethernet) {
    expect(isInterfaceName(eth.interface), instancePath("ethernet", name, "interface"),
           eth.interface, "an interface name");
  }
  for (const auto& [name, tor] : t.tor) {
    expect(isHostPort(tor.socks5Addr), instancePath("tor", name, "socks5_addr"), tor.socks5Addr,
           "a host:port");
    expect(tor.controlAddr.starts_with("/") || isHostPort(tor.controlAddr),
           instancePath("tor", name, "control_addr"), tor.controlAddr,
           "a Unix socket path or host:port");
    const bool authOk = tor.controlAuth == "cookie" ||
                        (tor.controlAuth.starts_with("cookie:") && tor.controlAuth.size() > 7) ||
                        tor.controlAuth.starts_with("password:");
    if (!authOk) {
      error(instancePath("tor", name, "control_auth"),
            "is not cookie, cookie:<path> or password:<secret>");
    }
    expect(isSocketAddress(tor.directoryService.bindAddr),
           instancePath("tor", name, "directory_service.bind_addr"), tor.directoryService.bindAddr,
           "an address:port");
  }
  for (const auto& [name, nym] : t.nym) {
    expect(isHostPort(nym.socks5Addr), instancePath("nym", name, "socks5_addr"), nym.socks5Addr,
           "a host:port");
  }
}

void Validator::checkPeers() {
  // Compressed key -> index of the first entry with it (an npub is lifted to
  // even Y, so equal X means equal compressed form).
  std::map<std::array<std::uint8_t, 33>, std::size_t> firstWithKey;
  for (std::size_t i = 0; i < c_.peers.size(); ++i) {
    const PeerConfig& peer = c_.peers[i];
    const std::string path = fmt::format("peers[{}]", i);
    auto key = identity::decodeNpub(peer.npub);
    if (!key.ok()) {
      error(path + ".npub",
            fmt::format("{} is not a valid npub: {}", quoteValue(peer.npub), key.error().message));
    } else if (auto [it, fresh] =
                   firstWithKey.emplace(key.value().compressed(), i);
               !fresh) {
      error(path + ".npub",
            fmt::format("the same peer as peers[{}] (one entry per npub)", it->second));
    }
    if (peer.alias) {
      if (auto reason = aliasError(*peer.alias)) {
        error(path + ".alias",
              fmt::format("{} is not a valid alias: {}", quoteValue(*peer.alias), *reason));
      }
    }
    if (peer.addresses.empty() && !peer.viaNostr) {
      error(path + ".addresses", "a peer needs at least one address, or via_nostr: true");
    }
    for (std::size_t k = 0; k < peer.addresses.size(); ++k) {
      checkPeerAddress(fmt::format("{}.addresses[{}]", path, k), peer.addresses[k]);
    }
  }
}

void Validator::checkPeerAddress(const std::string& path, const PeerAddress& address) {
  // "<type>/<instance>": split at the first '/'; an empty half means no instance.
  const std::size_t slash = address.transport.find('/');
  const bool qualified =
      slash != std::string::npos && slash > 0 && slash + 1 < address.transport.size();
  const std::string kind = qualified ? address.transport.substr(0, slash) : address.transport;
  const std::string instance = qualified ? address.transport.substr(slash + 1) : "";
  const std::vector<std::string>& types = transportTypes();
  if (std::find(types.begin(), types.end(), kind) == types.end()) {
    error(path + ".transport",
          fmt::format("{} is not a transport type ({}){}", quoteValue(address.transport),
                      fmt::join(types, ", "), didYouMean(kind, types)));
  } else if (build_ != nullptr && !built(kind)) {
    error(path + ".transport", fmt::format("{}: this build has no {} transport (it runs: {})",
                                           quoteValue(address.transport), kind, builtTransports()));
  } else if (qualified && kind != "udp") {
    error(path + ".transport", fmt::format("{}: only udp addresses may name an instance",
                                           quoteValue(address.transport)));
  } else if (qualified && (c_.transports.udp.count(instance) == 0 || instance.empty())) {
    error(path + ".transport", fmt::format("{}: no udp instance named {} is configured",
                                           quoteValue(address.transport), quoteValue(instance)));
  }
  if (address.addr.empty()) {
    error(path + ".addr", "must not be empty");
  } else if (auto bad = badIpLiteral(address.addr); bad && (kind == "udp" || kind == "tcp")) {
    error(path + ".addr", fmt::format("{}: {}", quoteValue(address.addr), *bad));
  } else if ((kind == "udp" || kind == "tcp") && address.addr != "nat" &&
             !isHostPort(address.addr)) {
    error(path + ".addr", fmt::format("{} is not a host:port with a port from 1 to 65535",
                                      quoteValue(address.addr)));
  } else if ((kind == "udp" || kind == "tcp") && isMeshSocketAddress(address.addr)) {
    error(path + ".addr", fmt::format("{} is in fd00::/8, the mesh's own addresses, not a "
                                      "reachable {} endpoint",
                                      quoteValue(address.addr), kind));
  }
}

void Validator::checkGateway() {
  if (!c_.gateway) return;
  const GatewayConfig& g = *c_.gateway;
  expect(isIpv6Cidr(g.pool), "gateway.pool", g.pool, "an IPv6 CIDR");
  expect(isInterfaceName(g.lanInterface), "gateway.lan_interface", g.lanInterface,
         "an interface name");
  expect(isSocketAddress(g.dns.listen), "gateway.dns.listen", g.dns.listen, "an address:port");
  expect(isSocketAddress(g.dns.upstream), "gateway.dns.upstream", g.dns.upstream,
         "an address:port");
  for (std::size_t i = 0; i < g.portForwards.size(); ++i) {
    const std::string& target = g.portForwards[i].target;
    expect(isSocketAddressV6(target), fmt::format("gateway.port_forwards[{}].target", i), target,
           "an [IPv6]:port");
  }
}

// Spec 08 §3.5: Nostr features need node.rendezvous.nostr.enabled, and a NAT
// UDP advert needs relays and STUN servers.
void Validator::checkNostrUse() {
  const NostrRendezvousConfig& nostr = c_.node.rendezvous.nostr;
  const TransportsConfig& t = c_.transports;
  bool natAdvert = false;
  auto needNostr = [&](bool advertises, const std::string& path) {
    if (advertises && !nostr.enabled) {
      error(path, "is true but node.rendezvous.nostr.enabled is false");
    }
  };
  for (const auto& [name, udp] : t.udp) {
    needNostr(udp.advertiseOnNostr, instancePath("udp", name, "advertise_on_nostr"));
    natAdvert = natAdvert || (udp.advertiseOnNostr && !udp.isPublic);
  }
  for (const auto& [name, tcp] : t.tcp) {
    needNostr(tcp.advertiseOnNostr, instancePath("tcp", name, "advertise_on_nostr"));
  }
  for (const auto& [name, tor] : t.tor) {
    needNostr(tor.advertiseOnNostr, instancePath("tor", name, "advertise_on_nostr"));
  }
  for (std::size_t i = 0; i < c_.peers.size(); ++i) {
    needNostr(c_.peers[i].viaNostr, fmt::format("peers[{}].via_nostr", i));
  }
  if (nostr.enabled && natAdvert) {
    const std::string why = "must not be empty when a UDP transport advertises a NAT endpoint";
    if (nostr.dmRelays.empty()) error("node.rendezvous.nostr.dm_relays", why);
    if (nostr.stunServers.empty()) error("node.rendezvous.nostr.stun_servers", why);
  }
}

// A loopback-bound UDP socket cannot reach non-loopback peers (spec 08 §3.5).
void Validator::checkLoopbackBind() {
  std::string external;
  for (std::size_t i = 0; i < c_.peers.size() && external.empty(); ++i) {
    for (std::size_t k = 0; k < c_.peers[i].addresses.size(); ++k) {
      const PeerAddress& a = c_.peers[i].addresses[k];
      if (a.transport == "udp" && !isLoopbackAddress(a.addr)) {
        external = fmt::format("peers[{}].addresses[{}]", i, k);
        break;
      }
    }
  }
  if (external.empty()) return;
  for (const auto& [name, udp] : c_.transports.udp) {
    if (udp.outboundOnly || !isLoopbackAddress(udp.bindAddr)) continue;
    error(instancePath("udp", name, "bind_addr"),
          fmt::format("{} is loopback but {} is a non-loopback udp address; bind 0.0.0.0:2121 "
                      "or set outbound_only: true",
                      quoteValue(udp.bindAddr), external));
  }
}

void Validator::checkLimits() {
  const NodeConfig& n = c_.node;
  if (n.nativeApi.backlog < 1) error("node.native_api.backlog", "must be at least 1");
  if (n.nativeApi.pendingPerFlow < 1 || n.nativeApi.pendingPerFlow > MAX_PENDING_PER_FLOW) {
    error("node.native_api.pending_per_flow",
          fmt::format("must be within 1..{}", MAX_PENDING_PER_FLOW));
  }
  if (n.rekey.afterMessages == 0) error("node.rekey.after_messages", "must be at least 1");
  if (n.rekey.afterSecs <= REKEY_JITTER_SECS) {
    error("node.rekey.after_secs",
          fmt::format("must be greater than {} (the rekey jitter)", REKEY_JITTER_SECS));
  }
  const RateLimitConfig& rl = n.rateLimit;
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (rl.establishedHandshakeBurst == 0u) {
    error("node.rate_limit.established_handshake_burst",
          "must not be 0 (omit it to derive it from node.limits.max_peers)");
  }
  if (rl.establishedHandshakeRate && !positive(*rl.establishedHandshakeRate)) {
    error("node.rate_limit.established_handshake_rate", "must be a finite number above 0");
  }
  if (rl.sessionSetupBurst == 0) error("node.rate_limit.session_setup_burst", "must not be 0");
  if (!positive(rl.sessionSetupRate)) {
    error("node.rate_limit.session_setup_rate", "must be a finite number above 0");
  }
  const NostrRendezvousConfig& nostr = n.rendezvous.nostr;
  const std::uint64_t window =
      nostr.signalTtlSecs > std::numeric_limits<std::uint64_t>::max() - 2 * FRESHNESS_SKEW_SECS
          ? std::numeric_limits<std::uint64_t>::max()
          : nostr.signalTtlSecs + 2 * FRESHNESS_SKEW_SECS;
  if (window >= nostr.replayWindowSecs) {
    const bool ttlSet = origins_.count("node.rendezvous.nostr.signal_ttl_secs") != 0;
    error(ttlSet ? "node.rendezvous.nostr.signal_ttl_secs"
                 : "node.rendezvous.nostr.replay_window_secs",
          fmt::format("signal_ttl_secs + {} ({}) must be less than replay_window_secs ({})",
                      2 * FRESHNESS_SKEW_SECS, window, nostr.replayWindowSecs));
  }
  if (nostr.maxConcurrentOffersPerNpub == 0 ||
      nostr.maxConcurrentOffersPerNpub > MAX_SEMAPHORE_PERMITS) {
    error("node.rendezvous.nostr.max_concurrent_offers_per_npub",
          fmt::format("must be within 1..{}", MAX_SEMAPHORE_PERMITS));
  }
}

bool Validator::built(const std::string& transport) const {
  return std::find(build_->transports.begin(), build_->transports.end(), transport) !=
         build_->transports.end();
}

std::string Validator::builtTransports() const {
  return build_->transports.empty() ? std::string("none")
                                    : fmt::format("{}", fmt::join(build_->transports, ", "));
}

// What this build cannot run is refused rather than skipped at start, so a
// config that passes `fips --check` runs as written (issue #24).
void Validator::checkBuild() {
  const TransportsConfig& t = c_.transports;
  const std::pair<std::string, bool> configured[] = {
      {"udp", !t.udp.empty()}, {"tcp", !t.tcp.empty()}, {"ethernet", !t.ethernet.empty()},
      {"tor", !t.tor.empty()}, {"nym", !t.nym.empty()}, {"ble", !t.ble.empty()},
  };
  for (const auto& [type, present] : configured) {
    if (present && !built(type)) {
      error("transports." + type,
            fmt::format("this build has no {} transport (it runs: {})", type, builtTransports()));
    }
  }
  if (c_.gateway && c_.gateway->enabled && !build_->gateway) {
    error("gateway.enabled", "is true but this build has no fips-gateway");
  }
  const NodeConfig& n = c_.node;
  if (n.rendezvous.nostr.enabled && !build_->nostrRendezvous) {
    error("node.rendezvous.nostr.enabled", "is true but this build has no Nostr rendezvous");
  }
  if (n.rendezvous.lan.enabled && !build_->lanRendezvous) {
    error("node.rendezvous.lan.enabled", "is true but this build has no LAN rendezvous");
  }
  if (n.nativeApi.enabled && !build_->nativeApi) {
    error("node.native_api.enabled", "is true but this build has no native API");
  }
}

}  // namespace

void validateConfig(const Config& config, const Origins& origins, const std::string& fallbackFile,
                    const std::set<std::string>& alreadyReported, const BuildSupport* build,
                    std::vector<std::string>& errors, std::vector<std::string>& warnings) {
  Validator(config, origins, fallbackFile, alreadyReported, build, errors, warnings).run();
}

}  // namespace fips::privsep::config
