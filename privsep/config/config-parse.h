// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the schema walk from one parsed YAML
// document to a typed Config (types, ranges, enums, unknown keys). Runs in the
// fips supervisor and fipsctl on operator-owned input; never throws for it.
#pragma once

#include <yaml-cpp/yaml.h>

#include "privsep/config/config.h"
#include "privsep/config/yaml-reader.h"

namespace fips::privsep::config {

// Reads a whole document (its top level is a map) into a Config with the
// reference's defaults; problems go to `ctx`.
Config parseDocument(ParseContext& ctx, const YAML::Node& root);

// The `node` section.
void parseNode(MapReader& node, NodeConfig& out);

// The `transports` section.
void parseTransports(MapReader& transports, TransportsConfig& out);

}  // namespace fips::privsep::config
