// SPDX-License-Identifier: MIT
// fipsctl's peer resolution (npub or hosts-file name) and the fd00::/8
// check on connect addresses (the reference's fipsctl tests).
#include "ctl/daemon-commands.h"

#include <fstream>

#include <doctest/doctest.h>

#include "lib/identity/test-util.h"

namespace fips::ctl {
namespace {

constexpr const char* NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

TEST_CASE("connect: fd00::/8 addresses are the mesh's own") {
  CHECK(isFipsMeshAddress("fd9d:abcd::1"));
  CHECK(isFipsMeshAddress("[fd00::1]:8443"));
  CHECK(isFipsMeshAddress("fd9d:abcd::1:2121"));
  CHECK_FALSE(isFipsMeshAddress("fc00::1"));
  CHECK_FALSE(isFipsMeshAddress("[2001:db8::1]:2121"));
  CHECK_FALSE(isFipsMeshAddress("192.0.2.1:2121"));
  CHECK_FALSE(isFipsMeshAddress("peer.example.com:2121"));
}

TEST_CASE("peers: an npub as is, a name through the hosts file") {
  identity::test::TempDir dir;
  const std::string hosts = (dir.path() / "hosts").string();
  std::ofstream(hosts) << "core-vm " << NPUB << "\n";
  CHECK(resolvePeer(NPUB, hosts) == std::optional<std::string>(NPUB));
  CHECK(resolvePeer("Core-VM", hosts) == std::optional<std::string>(NPUB));
  CHECK_FALSE(resolvePeer("nowhere", hosts));
  std::string upper = NPUB;  // bech32 in upper case: passed on as given
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(resolvePeer(upper, hosts) == std::optional<std::string>(upper));
}

}  // namespace
}  // namespace fips::ctl
