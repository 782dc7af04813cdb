// SPDX-License-Identifier: MIT
// The stats queries of control.capnp on a fixed history: the list, the
// reference's defaults (10m, 1s) and error texts, node and per-peer series,
// all-history for the node and for a peer.
#include "router/control/snapshot/stats-queries.h"

#include <array>
#include <cmath>
#include <string>

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <doctest/doctest.h>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/nip19.h"
#include "router/control/service/control-limits.h"

namespace fips::router::control {
namespace {

crypto::PublicKey keyOf(uint8_t tag) {
  static const crypto::Secp256k1Context ctx;
  std::array<uint8_t, 32> bytes{};
  bytes[31] = tag;
  return crypto::SecretKey::fromBytes(ctx, bytes)->publicKey();
}

// Five ticks with mesh_size 10..14 and peer 1 present throughout; the
// host map names peer 1 "bobby" (hosts file) and peer 3 "carol".
struct Fixture {
  stats::StatsHistory history;
  dns::HostMap names;
  Fixture() {
    REQUIRE_FALSE(names.insert("bobby", identity::encodeNpub(keyOf(1))));
    REQUIRE_FALSE(names.insert("carol", identity::encodeNpub(keyOf(3))));
    for (uint64_t t = 0; t < 5; ++t) {
      stats::NodeSample node;
      node.meshSize = 10 + t;
      stats::PeerSample peer(identity::NodeAddr::fromPublicKey(keyOf(1)), keyOf(1));
      peer.srttMs = 20.0 + static_cast<double>(t);
      history.tick(1000 * t, node, {&peer, 1});
    }
  }

  // Runs statsHistory with the given parameters.
  // A null window or granularity is left unset (the default).
  std::string ask(const char* metric, const std::string& peer, const char* window,
                  const char* granularity, std::vector<double>* values = nullptr,
                  uint64_t* cutFrom = nullptr) {
    capnp::MallocMessageBuilder in;
    auto params = in.initRoot<schema::FipsControl::StatsHistoryParams>();
    params.setMetric(metric);
    params.setPeer(peer);
    if (window != nullptr) params.setWindow(window);
    if (granularity != nullptr) params.setGranularity(granularity);
    capnp::MallocMessageBuilder out;
    auto result = out.initRoot<schema::StatsHistoryResult>();
    answerStatsHistory(history, names, params.asReader(), result);
    if (result.isError()) return result.getError().cStr();
    auto series = result.getSeries();
    if (values != nullptr) {
      for (double v : series.getValues()) values->push_back(v);
    }
    if (cutFrom != nullptr) *cutFrom = series.getWindowCutFromSeconds();
    return std::string(series.getMetric().cStr()) + "/" + series.getUnit().cStr() + "/" +
           std::to_string(series.getGranularitySeconds()) + "/" +
           std::to_string(series.getValues().size());
  }
};

TEST_CASE("statsList: every metric with its scope, and the retention") {
  capnp::MallocMessageBuilder out;
  auto list = out.initRoot<schema::StatsList>();
  fillStatsList(list);
  REQUIRE(list.getMetrics().size() == 17);
  CHECK(list.getMetrics()[0].getName() == "mesh_size");
  CHECK(list.getMetrics()[0].getScope() == "node");
  CHECK(list.getMetrics()[10].getName() == "srtt_ms");
  CHECK(list.getMetrics()[10].getScope() == "peer");
  CHECK(list.getFastRingSeconds() == 3600);
  CHECK(list.getSlowRingMinutes() == 1440);
  CHECK(list.getPeerRetentionSeconds() == 86400);
}

TEST_CASE("statsHistory: node series, defaults 10m at 1s") {
  Fixture f;
  std::vector<double> values;
  CHECK(f.ask("mesh_size", "", nullptr, nullptr, &values) == "mesh_size/nodes/1/600");
  CHECK(values[599] == 14);
  CHECK(values[595] == 10);
  CHECK(std::isnan(values[594]));
  CHECK(f.ask("mesh_size", "", "2h", "1m") == "mesh_size/nodes/60/120");
}

TEST_CASE("statsHistory: a window beyond the ring's retention is cut, and says so") {
  Fixture f;
  uint64_t cutFrom = 1;
  CHECK(f.ask("mesh_size", "", "1h", "1s", nullptr, &cutFrom) == "mesh_size/nodes/1/3600");
  CHECK(cutFrom == 0);
  CHECK(f.ask("mesh_size", "", "2h", "1s", nullptr, &cutFrom) == "mesh_size/nodes/1/3600");
  CHECK(cutFrom == 7200);
  CHECK(f.ask("mesh_size", "", "25h", "1m", nullptr, &cutFrom) == "mesh_size/nodes/60/1440");
  CHECK(cutFrom == 90000);
  const std::string npub = identity::encodeNpub(keyOf(1));
  CHECK(f.ask("srtt_ms", npub, "3h", "1s", nullptr, &cutFrom) == "srtt_ms/ms/1/3600");
  CHECK(cutFrom == 10800);
}

TEST_CASE("statsHistory: per-peer series") {
  Fixture f;
  const std::string npub = identity::encodeNpub(keyOf(1));
  std::vector<double> values;
  CHECK(f.ask("srtt_ms", npub, "3s", "1s", &values) == "srtt_ms/ms/1/3");
  CHECK(values == std::vector<double>{22, 23, 24});
  // A tracked peer's display name (alias, else short npub) names it too.
  CHECK(f.ask("srtt_ms", identity::shortNpub(keyOf(1)), "3s", "1s") == "srtt_ms/ms/1/3");
  // A name of the host map (any case) names it.
  CHECK(f.ask("srtt_ms", "Bobby", "3s", "1s") == "srtt_ms/ms/1/3");
  // A name of an untracked node: resolved, then not tracked.
  CHECK(f.ask("srtt_ms", "carol", "3s", "1s") == "peer not tracked in stats history: carol");
}

TEST_CASE("resolveStatsPeer: host map name, npub, tracked display name; else the error") {
  Fixture f;
  const auto npubOf = [&](std::string_view peer) {
    auto found = resolveStatsPeer(f.history, f.names, peer);
    REQUIRE(std::holds_alternative<StatsPeer>(found));
    CHECK(std::get<StatsPeer>(found).addr ==
          identity::NodeAddr::fromPublicKey(
              identity::decodeNpub(std::get<StatsPeer>(found).npub).value()));
    return std::get<StatsPeer>(found).npub;
  };
  CHECK(npubOf("bobby") == identity::encodeNpub(keyOf(1)));
  CHECK(npubOf("CAROL") == identity::encodeNpub(keyOf(3)));
  CHECK(npubOf(identity::shortNpub(keyOf(1))) == identity::encodeNpub(keyOf(1)));
  CHECK(npubOf(identity::encodeNpub(keyOf(2))) == identity::encodeNpub(keyOf(2)));
  CHECK(std::get<std::string>(resolveStatsPeer(f.history, f.names, "dave")) ==
        "unknown peer 'dave': not an npub, a hosts-file name or a configured peer alias");
}

TEST_CASE("statsHistory: the reference's errors") {
  Fixture f;
  const std::string npub = identity::encodeNpub(keyOf(1));
  CHECK(f.ask("", "", nullptr, nullptr) == "missing 'metric' parameter");
  CHECK(f.ask("bogus", "", nullptr, nullptr) == "unknown metric: bogus");
  CHECK(f.ask("mesh_size", npub, nullptr, nullptr) == "unknown peer metric: mesh_size");
  CHECK(f.ask("mesh_size", "", "10x", nullptr) == "unknown duration unit: x (expected s, m, h)");
  CHECK(f.ask("mesh_size", "", nullptr, "1h") == "unknown granularity: 1h (expected 1s or 1m)");
  CHECK(f.ask("srtt_ms", "npub1nope", nullptr, nullptr).starts_with("invalid peer npub: "));
  CHECK(f.ask("srtt_ms", "nobody", nullptr, nullptr) ==
        "unknown peer 'nobody': not an npub, a hosts-file name or a configured peer alias");
  CHECK(f.ask("srtt_ms", identity::encodeNpub(keyOf(2)), nullptr, nullptr) ==
        "peer not tracked in stats history: " + identity::shortNpub(keyOf(2)));
}

TEST_CASE("statsHistory: a secret key given as the peer is named so, never repeated") {
  Fixture f;
  std::array<uint8_t, 32> bytes{};
  bytes.fill(0x5a);
  const crypto::Secp256k1Context ctx;
  const auto secret = *crypto::SecretKey::fromBytes(ctx, bytes);
  const std::string nsec(identity::encodeNsec(secret).view());
  const std::string hex(64, 'a');
  for (const std::string& peer : {nsec, hex}) {
    CAPTURE(peer);
    const std::string error = f.ask("srtt_ms", peer, nullptr, nullptr);
    CHECK(error.find("secret key") != std::string::npos);
    CHECK(error.find("give the peer's npub") != std::string::npos);
    CHECK(error.find(peer.substr(0, 16)) == std::string::npos);
  }
}

TEST_CASE("statsHistory: a window shorter than one step is no samples, as the reference") {
  Fixture f;
  CHECK(f.ask("mesh_size", "", "0s", nullptr) == "mesh_size/nodes/1/0");
  CHECK(f.ask("mesh_size", "", "30s", "1m") == "mesh_size/nodes/60/0");
}

TEST_CASE("statsHistory: a per-peer metric without a peer says a peer is needed") {
  Fixture f;
  CHECK(f.ask("srtt_ms", "", nullptr, nullptr) ==
        "srtt_ms is a per-peer metric: give a peer (an npub, a hosts-file name or a peer's alias)");
}

TEST_CASE("statsHistory: an empty window or granularity is refused, not the default") {
  Fixture f;
  CHECK(f.ask("mesh_size", "", "", nullptr) == "empty duration");
  CHECK(f.ask("mesh_size", "", nullptr, "") == "unknown granularity:  (expected 1s or 1m)");
  CHECK(f.ask("mesh_size", "", "10", nullptr) ==
        "missing duration unit: 10 (expected <N>s, <N>m or <N>h, e.g. 10s)");
}

TEST_CASE("statsAllHistory: every node metric, or every metric of a peer") {
  Fixture f;
  capnp::MallocMessageBuilder in;
  auto params = in.initRoot<schema::FipsControl::StatsAllHistoryParams>();
  params.setWindow("5s");
  capnp::MallocMessageBuilder out;
  auto result = out.initRoot<schema::StatsAllHistoryResult>();
  answerStatsAllHistory(f.history, f.names, params.asReader(), result);
  REQUIRE(result.isSeries());
  CHECK(result.getSeries().size() == 10);
  CHECK(result.getSeries()[9].getMetric() == "active_sessions");
  CHECK(result.getWindowSeconds() == 5);
  CHECK(result.getGranularitySeconds() == 1);
  params.setPeer(identity::encodeNpub(keyOf(1)));
  answerStatsAllHistory(f.history, f.names, params.asReader(), result);
  REQUIRE(result.isSeries());
  CHECK(result.getSeries().size() == 7);
  CHECK(result.getSeries()[0].getValues()[4] == 24);
  params.setPeer(identity::encodeNpub(keyOf(3)));
  answerStatsAllHistory(f.history, f.names, params.asReader(), result);
  CHECK(result.isError());
}

TEST_CASE("statsAllHistory over the whole 1 h ring fits one control RPC message") {
  // fipstop's Graphs tab asks this at its 1h window, for the node and for a
  // peer; capnp refuses to send a reply above ControlLimits::messageWords.
  stats::StatsHistory history;
  const dns::HostMap names;
  stats::PeerSample peer(identity::NodeAddr::fromPublicKey(keyOf(1)), keyOf(1));
  peer.srttMs = 1.5;
  for (uint64_t t = 0; t < 3700; ++t) history.tick(1000 * t, stats::NodeSample{}, {&peer, 1});
  const uint64_t headroom = 1024;  // the RPC Return message around the result
  for (const std::string& who : {std::string(), identity::encodeNpub(keyOf(1))}) {
    CAPTURE(who);
    capnp::MallocMessageBuilder in;
    auto params = in.initRoot<schema::FipsControl::StatsAllHistoryParams>();
    params.setWindow("1h");
    params.setPeer(who);
    capnp::MallocMessageBuilder out;
    auto result = out.initRoot<schema::StatsAllHistoryResult>();
    answerStatsAllHistory(history, names, params.asReader(), result);
    REQUIRE(result.isSeries());
    CHECK(result.getSeries()[0].getValues().size() == 3600);
    CHECK(capnp::computeSerializedSizeInWords(out) + headroom < ControlLimits{}.messageWords);
  }
}

TEST_CASE("statsPeers: the tracked peer") {
  Fixture f;
  capnp::MallocMessageBuilder out;
  auto results = out.initRoot<schema::FipsControl::StatsPeersResults>();
  fillStatsPeers(f.history, f.names, results);
  REQUIRE(results.getPeers().size() == 1);
  CHECK(results.getPeers()[0].getDisplayName() == "bobby");
  // The hosts file changed: the peer is shown by its new name, or, with
  // none, by its short npub.
  f.names = dns::HostMap();
  REQUIRE_FALSE(f.names.insert("robert", identity::encodeNpub(keyOf(1))));
  fillStatsPeers(f.history, f.names, results);
  CHECK(results.getPeers()[0].getDisplayName() == "robert");
  fillStatsPeers(f.history, dns::HostMap(), results);
  CHECK(std::string(results.getPeers()[0].getDisplayName().cStr()) ==
        identity::shortNpub(keyOf(1)));
  CHECK(std::string(results.getPeers()[0].getNpub().cStr()) == identity::encodeNpub(keyOf(1)));
  CHECK(results.getPeers()[0].getIsActive());
  CHECK(results.getPeers()[0].getFirstSeenSecsAgo() == 4);
}

}  // namespace
}  // namespace fips::router::control
