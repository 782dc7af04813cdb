// SPDX-License-Identifier: MIT
// show_metrics document (see metrics-json.h).
#include "router/control/json/metrics-json.h"

namespace fips::router::control::json {

Json metricsJson(capnp::List<schema::Counter>::Reader counters) {
  Json out = Json::object();
  for (auto c : counters) {
    Json& family = out[std::string(c.getFamily())];
    const std::string name = c.getName();
    if (c.getLabelName().size() == 0) {
      family[name] = c.getValue();
    } else {
      family[name][std::string(c.getLabelValue())] = c.getValue();
    }
  }
  return out;
}

}  // namespace fips::router::control::json
