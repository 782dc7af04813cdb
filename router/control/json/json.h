// SPDX-License-Identifier: MIT
// The JSON document type of the control views: keys keep the order they
// are inserted in, as the reference's serde structs print them.
#pragma once

#include <nlohmann/json.hpp>

namespace fips::router::control::json {

using Json = nlohmann::ordered_json;

}  // namespace fips::router::control::json
