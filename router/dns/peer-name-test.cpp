// SPDX-License-Identifier: MIT
// Peer names as the control service takes them: a host-map name (hosts
// file or alias, any case), an npub, or the errors (a secret key is named
// as such, not repeated).
#include "router/dns/peer-name.h"

#include "lib/identity/nip19.h"
#include "router/dns/dns-test-util.h"

namespace fips::router::dns {
namespace {

using test::vectorIdentity;

TEST_CASE("a hosts-file name, an alias (any case), an npub; the file wins a clash") {
  const auto [npub0, ip0] = vectorIdentity(0);
  const auto [npub1, ip1] = vectorIdentity(1);
  std::vector<std::string> warnings;
  auto names = hostMapFromPeers({{"bob", npub0}, {"gw", npub0}}, warnings);
  names.merge(parseHostsFile("bobby " + npub1 + "\ngw " + npub1 + "\n", "h", warnings));
  const auto npubOf = [&](std::string_view peer) {
    auto key = resolvePeerName(peer, names);
    REQUIRE(std::holds_alternative<crypto::PublicKey>(key));
    return identity::encodeNpub(std::get<crypto::PublicKey>(key));
  };
  CHECK(npubOf("bobby") == npub1);
  CHECK(npubOf("BOBBY") == npub1);
  CHECK(npubOf("Bob") == npub0);
  CHECK(npubOf("gw") == npub1);
  CHECK(npubOf(npub0) == npub0);
  std::string upper = npub0;  // bech32 all-upper is the same npub
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(npubOf(upper) == npub0);
}

TEST_CASE("unknown name: connect's wording; a bad npub: the decoder's reason") {
  const HostMap names;
  auto unknown = resolvePeerName("nobody", names);
  REQUIRE(std::holds_alternative<PeerNameError>(unknown));
  CHECK_FALSE(std::get<PeerNameError>(unknown).badNpub);
  CHECK(std::get<PeerNameError>(unknown).text ==
        "unknown peer 'nobody': not an npub, a hosts-file name or a configured peer alias");
  auto bad = resolvePeerName("npub1nope", names);
  REQUIRE(std::holds_alternative<PeerNameError>(bad));
  CHECK(std::get<PeerNameError>(bad).badNpub);
  CHECK_FALSE(std::get<PeerNameError>(bad).text.empty());
  CHECK(std::holds_alternative<PeerNameError>(resolvePeerName("", names)));
}

TEST_CASE("a secret key given as a peer: refused, never repeated") {
  const HostMap names;
  const std::string nsec = "nsec1" + std::string(58, 'q');
  const std::string hex(64, 'a');
  for (const auto& secret : {nsec, hex}) {
    auto refused = resolvePeerName(secret, names);
    REQUIRE(std::holds_alternative<PeerNameError>(refused));
    const auto& error = std::get<PeerNameError>(refused);
    CHECK_FALSE(error.badNpub);
    CHECK(error.text.find("secret key") != std::string::npos);
    CHECK(error.text.find(secret) == std::string::npos);
  }
}

}  // namespace
}  // namespace fips::router::dns
