// SPDX-License-Identifier: MIT
// Text for raw snapshot fields, shared by fipsctl's renderers. Runs in
// fipsctl; the bytes come from the router's snapshot.
#pragma once

#include <string>

#include <capnp/blob.h>

namespace fips::ctl {

// Lowercase hex of every byte (a 16-byte NodeAddr gives 32 characters).
std::string hex(capnp::Data::Reader data);

// A 16-byte IPv6 address in RFC 5952 text; "-" for any other length.
std::string ipv6Text(capnp::Data::Reader data);

}  // namespace fips::ctl
