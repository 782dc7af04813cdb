// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: reads `node.*` (spec 08 §3.2, 07 §7-8)
// by its field tables (node-fields.h), folding the deprecated
// `node.discovery` block. Runs in the fips supervisor and fipsctl on
// operator-owned input; bad values become messages.
#include "privsep/config/config-parse.h"
#include "privsep/config/field-parse.h"
#include "privsep/config/node-fields.h"

namespace fips::privsep::config {

namespace {

// Copies the origins recorded under `from` to the same keys under `to`, so
// checks on the folded values point at the lines that set them.
void aliasOrigins(Origins& origins, const std::string& from, const std::string& to) {
  Origins copies;
  for (const auto& [path, origin] : origins) {
    if (path.compare(0, from.size(), from) == 0) copies[to + path.substr(from.size())] = origin;
  }
  origins.insert(copies.begin(), copies.end());
}

// COMPAT: `node.discovery` (deprecated) holds the lookup keys and the
// rendezvous tables; folded into them, it wins over them, as in the reference.
void parseDiscovery(MapReader& r, NodeConfig& out) {
  r.context().warn(r.line(),
                   "node.discovery is deprecated: use node.lookup.* and node.rendezvous.* "
                   "(applied for now)");
  readFields(r, out.lookup, LOOKUP_FIELDS);
  readFields(r, out.rendezvous, RENDEZVOUS_FIELDS);
  aliasOrigins(r.context().origins(), "node.discovery.nostr", "node.rendezvous.nostr");
  aliasOrigins(r.context().origins(), "node.discovery.lan", "node.rendezvous.lan");
}

}  // namespace

void parseNode(MapReader& r, NodeConfig& out) {
  readFields(r, out, NODE_FIELDS);
  r.section("discovery", [&](MapReader& s) { parseDiscovery(s, out); });
}

}  // namespace fips::privsep::config
