// SPDX-License-Identifier: MIT
// The reference's JSON documents for show_tree, show_bloom and show_cache
// (docs/reference/control-socket.md), made from parts of the per-tick
// NodeSnapshot (control.capnp). Pure functions; used by fipsctl --json and
// by the router's JSON-line compatibility protocol. The snapshot is the
// router's own.
#pragma once

#include "control.capnp.h"
#include "router/control/json/json.h"

namespace fips::router::control::json {

// show_tree: my_node_addr, root, root_npub (null when unknown), is_root,
// depth, my_coords[], parent, parent_display_name, declaration_sequence,
// declaration_signed, peer_tree_count, peers[], stats{}.
Json treeJson(schema::TreeStatus::Reader tree);

// show_bloom: own_node_addr, is_leaf_only, sequence, leaf_dependent_count,
// leaf_dependents[], peer_filters[], uptree_fill_ratio, uptree_estimated_count
// (both null: not tracked in this build), stats{}.
Json bloomJson(schema::BloomStatus::Reader bloom);

// show_cache: count, max_entries, fill_ratio, default_ttl_ms, expired,
// avg_age_ms, entries[].
Json cacheJson(schema::CacheStatus::Reader cache);

}  // namespace fips::router::control::json
