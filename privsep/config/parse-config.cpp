// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: reads the top level by its field tables
// (config-fields.h: node, tun, dns, peers[], gateway) and dispatches
// transports (spec 08 §3.1, §3.4, §5). Runs in the fips supervisor and
// fipsctl on operator-owned input; bad values become messages.
#include "privsep/config/config-fields.h"
#include "privsep/config/config-parse.h"
#include "privsep/config/field-parse.h"

namespace fips::privsep::config {

Config parseDocument(ParseContext& ctx, const YAML::Node& root) {
  Config config;
  MapReader top(ctx, root, "", 1);
  top.section("node", [&](MapReader& r) { parseNode(r, config.node); });
  top.section("tun", [&](MapReader& r) {
    r.acceptNullAsDefault();
    readFields(r, config.tun, TUN_FIELDS);
  });
  top.section("dns", [&](MapReader& r) {
    r.acceptNullAsDefault();
    readFields(r, config.dns, DNS_FIELDS);
  });
  top.section("transports", [&](MapReader& r) { parseTransports(r, config.transports); });
  readFields(top, config, CONFIG_PEERS);
  if (std::optional<YAML::Node> gateway = top.take("gateway"); gateway && !gateway->IsNull()) {
    GatewayConfig parsed;
    MapReader r(ctx, *gateway, "gateway", top.lineOf("gateway"));
    readFields(r, parsed, GATEWAY_FIELDS);
    r.finish();
    config.gateway = std::move(parsed);
  }
  top.finish();
  return config;
}

}  // namespace fips::privsep::config
