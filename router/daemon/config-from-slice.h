// SPDX-License-Identifier: MIT
// The router's config slice (supervisor.capnp RouterConfig: node.*, the
// link, tree, bloom, lookup, cache and session settings) turned into the
// settings of the sans-IO mesh core. Runs in fips-router; the slice comes
// from the supervisor, which validated the operator's fips.yaml.
#pragma once

#include "router/mesh/mesh-config.h"
#include "supervisor.capnp.h"

namespace fips::router {

// Every setting of `slice` the mesh core takes; what the slice leaves out
// (no session settings) keeps the core's default. Units as in the slice:
// seconds become milliseconds where the core counts in ms.
mesh::MeshConfig meshConfig(schema::RouterConfig::Reader slice);

}  // namespace fips::router
