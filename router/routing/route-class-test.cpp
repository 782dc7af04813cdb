// SPDX-License-Identifier: MIT
#include "router/routing/route-class.h"

#include "router/routing/routing-test-util.h"

namespace fips::router::routing {
namespace {

using test::addr;
using test::coords;

TEST_CASE("route class: the six classes") {
  // Root 01; we are 50 under 20 (path [50, 20, 01]).
  const NodeAddr me = addr(0x50);
  const auto mine = coords({0x50, 0x20, 0x01});
  const auto child = coords({0x60, 0x50, 0x20, 0x01});
  const auto lateral = coords({0x70, 0x01});
  const auto belowChild = coords({0x90, 0x60, 0x50, 0x20, 0x01});
  const auto belowLateral = coords({0x91, 0x70, 0x01});
  const auto elsewhere = coords({0x92, 0x30, 0x01});

  CHECK(classifyForward(addr(0x60), addr(0x60), me, mine, nullptr, &child) ==
        RouteClass::DIRECT_PEER);
  CHECK(classifyForward(addr(0x92), addr(0x20), me, mine, &elsewhere, nullptr) ==
        RouteClass::TREE_UP);
  CHECK(classifyForward(addr(0x90), addr(0x60), me, mine, &belowChild, &child) ==
        RouteClass::TREE_DOWN);
  CHECK(classifyForward(addr(0x92), addr(0x60), me, mine, &elsewhere, &child) ==
        RouteClass::TREE_DOWN_CROSS);
  CHECK(classifyForward(addr(0x91), addr(0x70), me, mine, &belowLateral, &lateral) ==
        RouteClass::CROSSLINK_DESCEND);
  CHECK(classifyForward(addr(0x92), addr(0x70), me, mine, &elsewhere, &lateral) ==
        RouteClass::CROSSLINK_ASCEND);
  // Unknown destination coordinates count as "not in the subtree".
  CHECK(classifyForward(addr(0x91), addr(0x70), me, mine, nullptr, &lateral) ==
        RouteClass::CROSSLINK_ASCEND);
  CHECK(std::string(toString(RouteClass::TREE_DOWN_CROSS)) == "tree_down_cross");
}

}  // namespace
}  // namespace fips::router::routing
