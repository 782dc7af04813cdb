// SPDX-License-Identifier: MIT
// HostMap: hostname -> npub aliases for `<alias>.fips` (spec 05 §5), filled
// from configured peers' `alias` and from the hosts file (format and
// hostname rules of the reference's src/upper/hosts.rs). Runs in
// fips-router; the hosts file is operator-owned, but its lines are checked
// one by one and a bad line is skipped with a warning, never fatal.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"

namespace fips::router::dns {

// The hosts file read by default (Linux layout of the reference).
inline constexpr const char* DEFAULT_HOSTS_PATH = "/etc/fips/hosts";

class HostMap {
 public:
  // Validates hostname and npub; on success stores (lowercased hostname ->
  // key), replacing an earlier entry. On failure returns the reason
  // ("invalid hostname 'x': ..." or "invalid npub 'y': ...").
  std::optional<std::string> insert(std::string_view hostname, std::string_view npub);

  // Case-insensitive lookup.
  const crypto::PublicKey* find(std::string_view hostname) const;

  // The name of the node at `addr` (lower-cased; the last one inserted or
  // merged for it, as the reference's lookup_hostname), or nullptr.
  const std::string* nameOf(const identity::NodeAddr& addr) const;
  // Every node's name (node address -> lower-cased name), as nameOf.
  const std::map<identity::NodeAddr, std::string>& names() const { return byAddr_; }

  // Copies every entry of `other` in, `other` winning on conflicts (of
  // names and of node addresses).
  void merge(const HostMap& other);

  size_t size() const { return byName_.size(); }
  bool empty() const { return byName_.empty(); }

 private:
  // Points lower-cased `name` at `key`; a node the name named before loses
  // it as its shown name (nameOf), so a re-pointed name shows on one node.
  void bind(const std::string& name, const crypto::PublicKey& key);

  std::map<std::string, crypto::PublicKey> byName_;
  std::map<identity::NodeAddr, std::string> byAddr_;
};

// A configured peer's alias (from the router's config slice).
struct PeerAlias {
  std::string alias;
  std::string npub;
};

// The map from configured peer aliases; each invalid one adds a warning
// ("peer alias 'x': <reason>") and is skipped.
HostMap hostMapFromPeers(const std::vector<PeerAlias>& peers, std::vector<std::string>& warnings);

// Parses hosts-file text: one "hostname npub" pair per line, exactly two
// fields separated by whitespace; blank lines and lines whose first
// non-blank character is '#' are ignored. A bad line adds a warning
// "<path>:<line>: <reason>" and is skipped. Text that is not UTF-8 yields
// an empty map and one warning (the reference cannot read such a file).
HostMap parseHostsFile(std::string_view text, std::string_view path,
                       std::vector<std::string>& warnings);

}  // namespace fips::router::dns
