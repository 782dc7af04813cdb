// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the value checks of the field tables
// (one generic walk) and the cross-field rules of the reference's
// Config::validate (spec 08 §3.5). Runs in the fips supervisor and fipsctl
// on operator-owned input; never prints secrets.
#include "privsep/config/config-validate.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <sys/un.h>
#include <type_traits>

#include <fmt/format.h>

#include "privsep/config/address.h"
#include "privsep/config/config-fields.h"
#include "privsep/config/did-you-mean.h"
#include "privsep/config/log-level.h"
#include "privsep/host-name.h"

#include "lib/crypto/secp256k1-context.h"
#include "lib/identity/nip19.h"

namespace fips::privsep::config {

namespace {

// The longest path a Unix socket address holds: sun_path less its NUL (107
// bytes on Linux).
constexpr std::size_t MAX_UNIX_SOCKET_PATH_BYTES = sizeof(sockaddr_un::sun_path) - 1;
// Clock-skew grace on each side of a Nostr signal (reference nostr/signal.rs).
constexpr std::uint64_t FRESHNESS_SKEW_SECS = 60;
// The transport types of the reference's config language.
const std::vector<std::string>& transportTypes() {
  static const std::vector<std::string> types = [] {
    std::vector<std::string> out;
    forEachEntry(TRANSPORT_KINDS, [&](const auto& kind) { out.emplace_back(kind.type); });
    return out;
  }();
  return types;
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
    checkFields("", c_, CONFIG_FIELDS);
    forEachEntry(TRANSPORT_KINDS, [&](const auto& kind) { checkInstances(kind); });
    checkFields("", c_, CONFIG_PEERS);
    if (c_.gateway) checkFields("gateway", *c_.gateway, GATEWAY_FIELDS);
    checkNode();
    checkPeers();
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

  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
  }

  // Runs the check of every field `table` lists, under `path`.
  template <typename S, typename Table>
  void checkFields(const std::string& path, const S& s, const Table& table) {
    forEachEntry(table, [&](const auto& entry) {
      using E = std::decay_t<decltype(entry)>;
      if constexpr (IS_FIELD<E>) {
        if (entry.options.check == nullptr) return;
        if (auto reason = entry.options.check(s.*entry.member)) {
          error(join(path, entry.key), *reason);
        }
      } else if constexpr (IS_SECTION<E>) {
        checkFields(join(path, entry.key), s.*entry.member, *entry.fields);
      } else if constexpr (IS_LIST<E>) {
        const auto& items = s.*entry.member;
        for (std::size_t i = 0; i < items.size(); ++i) {
          checkFields(fmt::format("{}[{}]", join(path, entry.key), i), items[i], *entry.fields);
        }
      }
    });
  }

  template <typename Kind>
  void checkInstances(const Kind& kind) {
    for (const auto& [name, instance] : c_.transports.*kind.instances) {
      const std::string path = name.empty() ? fmt::format("transports.{}", kind.type)
                                            : fmt::format("transports.{}.{}", kind.type, name);
      checkFields(path, instance, *kind.fields);
    }
  }

  void checkNode();
  void checkPeers();
  void checkPeerAddress(const std::string& path, const PeerAddress& address);
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
      error("node.identity.nsec",
            "is not a usable nsec1... or 64-hex secret key: " + key.error().message);
    }
  }
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
    } else if (auto [it, fresh] = firstWithKey.emplace(key.value().compressed(), i); !fresh) {
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
  } else if (qualified && kind != "udp" && kind != "tcp") {
    error(path + ".transport", fmt::format("{}: only udp and tcp addresses may name an instance",
                                           quoteValue(address.transport)));
  } else if (qualified &&
             (instance.empty() || (kind == "udp" ? c_.transports.udp.count(instance)
                                                 : c_.transports.tcp.count(instance)) == 0)) {
    error(path + ".transport",
          fmt::format("{}: no {} instance named {} is configured", quoteValue(address.transport),
                      kind, quoteValue(instance)));
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

// The replay window must outlast a signal's lifetime and clock skew.
void Validator::checkLimits() {
  const NodeConfig& n = c_.node;
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
  forEachEntry(TRANSPORT_KINDS, [&](const auto& kind) {
    const std::string type(kind.type);
    if (!(c_.transports.*kind.instances).empty() && !built(type)) {
      error("transports." + type,
            fmt::format("this build has no {} transport (it runs: {})", type, builtTransports()));
    }
  });
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
