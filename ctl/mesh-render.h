// SPDX-License-Identifier: MIT
// How fipsctl prints `show tree|bloom|cache`: the reference's show_tree /
// show_bloom / show_cache document (router/control/json), or a human
// summary and table. Pure functions of the daemon's answer; runs in fipsctl.
#pragma once

#include <string>

#include "control.capnp.h"
#include "ctl/show-render.h"
#include "router/control/json/mesh-json.h"

namespace fips::ctl {

using router::control::json::bloomJson;
using router::control::json::cacheJson;
using router::control::json::treeJson;

std::string treeTable(schema::TreeStatus::Reader tree);

std::string bloomTable(schema::BloomStatus::Reader bloom);

std::string cacheTable(schema::CacheStatus::Reader cache);

}  // namespace fips::ctl
