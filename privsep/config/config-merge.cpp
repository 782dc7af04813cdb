// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the reference's partial merge of search
// path files. Runs in the fips supervisor and fipsctl on parsed configs.
#include "privsep/config/config-merge.h"

#include <algorithm>

#include <fmt/format.h>

#include "privsep/config/transport-fields.h"

namespace fips::privsep::config {

namespace {

// The node.* children a search-path file may contribute.
constexpr std::string_view MERGED_NODE_KEYS[] = {"identity", "leaf_only", "user"};

bool isUnder(const std::string& path, const std::string& prefix) {
  return path == prefix || (path.size() > prefix.size() && path.starts_with(prefix) &&
                            (path[prefix.size()] == '.' || path[prefix.size()] == '['));
}

// Makes `base` record, for `prefix` and below, what `file` recorded.
void takeOrigins(Origins& base, const Origins& file, const std::string& prefix) {
  std::erase_if(base, [&](const auto& entry) { return isUnder(entry.first, prefix); });
  for (const auto& [path, origin] : file) {
    if (isUnder(path, prefix)) base[path] = origin;
  }
}

bool present(const Origins& origins, const std::string& path) {
  return origins.count(path) != 0;
}

template <typename T>
void mergeTransport(Instances<T>& base, const Instances<T>& file, Origins& baseOrigins,
                    const Origins& fileOrigins, const std::string& path) {
  if (file.empty()) return;
  base = file;
  takeOrigins(baseOrigins, fileOrigins, path);
}

void warnDroppedNodeKeys(const Origins& fileOrigins, std::vector<std::string>& warnings) {
  for (const auto& [path, origin] : fileOrigins) {
    if (!path.starts_with("node.") || path.find('.', 5) != std::string::npos) continue;
    const std::string_view key = std::string_view(path).substr(5);
    if (std::find(std::begin(MERGED_NODE_KEYS), std::end(MERGED_NODE_KEYS), key) !=
        std::end(MERGED_NODE_KEYS)) {
      continue;
    }
    warnings.push_back(fmt::format(
        "{}:{}: {} is ignored in a search-path file (only node.identity, node.leaf_only and "
        "node.user are merged; use -c FILE to apply it)",
        origin.file, origin.line, path));
  }
}

}  // namespace

void mergeFile(Config& base, Origins& baseOrigins, const Config& file, const Origins& fileOrigins,
               std::vector<std::string>& warnings) {
  auto take = [&](const std::string& path) { takeOrigins(baseOrigins, fileOrigins, path); };
  if (file.node.identity.nsec) {
    base.node.identity.nsec = file.node.identity.nsec;
    take("node.identity.nsec");
  }
  if (file.node.identity.persistent) {
    base.node.identity.persistent = true;
    take("node.identity.persistent");
  }
  if (file.node.leafOnly) {
    base.node.leafOnly = true;
    take("node.leaf_only");
  }
  if (present(fileOrigins, "node.user")) {
    base.node.user = file.node.user;
    take("node.user");
  }
  warnDroppedNodeKeys(fileOrigins, warnings);
  if (file.tun.enabled) {
    base.tun.enabled = true;
    take("tun.enabled");
  }
  for (const char* key : {"tun.name", "tun.mtu", "dns.bind_addr", "dns.port", "dns.ttl"}) {
    if (present(fileOrigins, key)) take(key);
  }
  if (present(fileOrigins, "tun.name")) base.tun.name = file.tun.name;
  if (present(fileOrigins, "tun.mtu")) base.tun.mtu = file.tun.mtu;
  // dns.enabled is always overwritten: a later file without it resets it to true.
  base.dns.enabled = file.dns.enabled;
  take("dns.enabled");
  if (present(fileOrigins, "dns.bind_addr")) base.dns.bindAddr = file.dns.bindAddr;
  if (present(fileOrigins, "dns.port")) base.dns.port = file.dns.port;
  if (present(fileOrigins, "dns.ttl")) base.dns.ttl = file.dns.ttl;
  forEachEntry(TRANSPORT_KINDS, [&](const auto& kind) {
    mergeTransport(base.transports.*kind.instances, file.transports.*kind.instances, baseOrigins,
                   fileOrigins, "transports." + std::string(kind.type));
  });
  if (!file.peers.empty()) {
    base.peers = file.peers;
    take("peers");
  }
  if (file.gateway) {
    base.gateway = file.gateway;
    take("gateway");
  }
}

}  // namespace fips::privsep::config
