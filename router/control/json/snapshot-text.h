// SPDX-License-Identifier: MIT
// Text for raw snapshot fields (control.capnp), shared by the JSON views
// and fipsctl's tables. Runs in fips-router and fipsctl; the bytes come
// from the router's own snapshot.
#pragma once

#include <string>

#include <capnp/blob.h>

namespace fips::router::control::json {

// Lowercase hex of every byte (a 16-byte NodeAddr gives 32 characters).
std::string hex(capnp::Data::Reader data);

// A 16-byte IPv6 address in RFC 5952 text; "-" for any other length.
std::string ipv6Text(capnp::Data::Reader data);

}  // namespace fips::router::control::json
