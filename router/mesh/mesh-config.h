// SPDX-License-Identifier: MIT
// MeshConfig: the settings of one mesh node core (node.* of fips.yaml that
// the link engine and the mesh components read: link timers and limits,
// node.tree, node.bloom, node.lookup, node.cache, node.session). Runs in fips-router;
// filled from the validated config slice, so trusted.
#pragma once

#include "router/bloom/bloom-config.h"
#include "router/fsp/session-table.h"
#include "router/link/link-config.h"
#include "router/link/link-pmtu.h"
#include "router/lookup/lookup-state.h"
#include "router/routing/coord-cache.h"
#include "router/routing/identity-cache.h"
#include "router/stp/tree-config.h"

namespace fips::router::mesh {

struct MeshConfig {
  link::LinkConfig link;
  stp::TreeConfig tree;
  bloom::BloomConfig bloom;
  lookup::LookupConfig lookup;
  routing::CoordCacheConfig coordCache;
  routing::IdentityCacheConfig identityCache;
  fsp::SessionConfig session;  // node.session.*
  // Path MTU probing per link (RFC 8899; mesh-node-pmtu.cpp): on in the
  // daemon, off by default so simulated meshes carry only protocol traffic.
  // maxMtu is replaced by the transport MTU.
  bool pmtuProbing = false;
  link::LinkPmtuConfig pmtu;
};

}  // namespace fips::router::mesh
