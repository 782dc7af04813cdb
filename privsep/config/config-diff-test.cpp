// SPDX-License-Identifier: MIT
// Unit tests for changedKeys: each changed fips.yaml key by its dotted name,
// lists as one key, the nsec named but never printed. Test-only code.
#include "privsep/config/config-diff.h"

#include <doctest/doctest.h>

namespace fips::privsep::config {

namespace {

const std::string NPUB = "npub1qmc3cvfz0yu2hx96nq3gp55zdan2qclealn7xshgr448d3nh6lks7zel98";

using Keys = std::vector<std::string>;

TEST_CASE("changedKeys: none for equal configs") {
  CHECK(changedKeys(Config{}, Config{}).empty());
}

TEST_CASE("changedKeys: each changed node.* key by name, in print order") {
  Config before;
  Config after;
  after.node.control.jsonCompat = true;
  after.node.heartbeatIntervalSecs = 7;
  after.node.tree.parentHysteresis = 0.5;
  after.node.lookup.attemptTimeoutsSecs = {1, 2};
  after.node.rendezvous.nostr.dmRelays = {"wss://relay.example"};
  const Keys keys = changedKeys(before, after);
  CHECK(keys == Keys{"node.heartbeat_interval_secs", "node.lookup.attempt_timeouts_secs",
                     "node.rendezvous.nostr.dm_relays", "node.tree.parent_hysteresis",
                     "node.control.json_compat"});
}

TEST_CASE("changedKeys: other sections, a list of maps as one key, the nsec by name only") {
  Config before;
  Config after;
  after.tun.mtu = 1400;
  PeerConfig peer;
  peer.npub = NPUB;
  peer.addresses.push_back({"udp", "192.0.2.1:2121", 1});
  after.peers.push_back(peer);
  after.node.identity.nsec = std::string(64, 'a');
  CHECK(changedKeys(before, after) == Keys{"tun.mtu", "peers", "node.identity.nsec"});
  Config moved = after;
  moved.peers[0].addresses[0].addr = "192.0.2.2:2121";
  CHECK(changedKeys(after, moved) == Keys{"peers"});
}

}  // namespace

}  // namespace fips::privsep::config
