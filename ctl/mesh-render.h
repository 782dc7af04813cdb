// SPDX-License-Identifier: MIT
// How fipsctl prints `show tree|bloom|cache`: a JSON document with the
// reference's show_tree / show_bloom / show_cache field names
// (docs/reference/control-socket.md), or a human summary and table. Pure
// functions of the daemon's answer; runs in fipsctl.
#pragma once

#include <string>

#include "control.capnp.h"
#include "ctl/show-render.h"

namespace fips::ctl {

// show_tree: my_node_addr, root, root_npub (null when unknown), is_root,
// depth, my_coords[], parent, parent_display_name, declaration_sequence,
// declaration_signed, peer_tree_count, peers[], stats{}.
Json treeJson(schema::TreeStatus::Reader tree);
std::string treeTable(schema::TreeStatus::Reader tree);

// show_bloom: own_node_addr, is_leaf_only, sequence, leaf_dependent_count,
// leaf_dependents[], peer_filters[], uptree_fill_ratio, uptree_estimated_count
// (both null: not tracked in this build), stats{}.
Json bloomJson(schema::BloomStatus::Reader bloom);
std::string bloomTable(schema::BloomStatus::Reader bloom);

// show_cache: count, max_entries, fill_ratio, default_ttl_ms, expired,
// avg_age_ms, entries[].
Json cacheJson(schema::CacheStatus::Reader cache);
std::string cacheTable(schema::CacheStatus::Reader cache);

}  // namespace fips::ctl
