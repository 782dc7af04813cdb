// SPDX-License-Identifier: MIT
// MeshConfig: the settings of one mesh node core (node.* of fips.yaml that
// the link engine and the mesh components read). Runs in fips-router; filled
// from the validated config slice, so trusted.
#pragma once

#include "router/link/link-config.h"
#include "router/stp/tree-config.h"

namespace fips::router::mesh {

struct MeshConfig {
  link::LinkConfig link;
  stp::TreeConfig tree;
};

}  // namespace fips::router::mesh
