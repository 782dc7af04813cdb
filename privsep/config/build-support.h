// SPDX-License-Identifier: MIT
// What one build of the fips suite can run, for the fips.yaml checks that
// refuse a config asking for more (`fips --check` and every start, issue
// #24). The supervisor fills it (privsep/supervisor/config-check.h); the
// loader's other users (fipsctl, the golden tests) pass none and accept every
// feature the reference's config language has.
#pragma once

#include <string>
#include <vector>

namespace fips::privsep::config {

struct BuildSupport {
  // Transport types with a worker in this build ("udp").
  std::vector<std::string> transports;
  bool gateway = false;          // fips-gateway (gateway.enabled)
  bool nostrRendezvous = false;  // node.rendezvous.nostr.enabled
  bool lanRendezvous = false;    // node.rendezvous.lan.enabled
  bool nativeApi = false;        // node.native_api.enabled
};

}  // namespace fips::privsep::config
