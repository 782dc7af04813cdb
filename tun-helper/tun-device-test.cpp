// SPDX-License-Identifier: MIT
// Tests of TUN creation and configuration against the real kernel, each inside a fresh network
// namespace of the test process (the host's is never touched). Needs root; skips otherwise.
// Exercises the code of fips-tun-helper (privileged) with test-chosen, trusted values.
#include "tun-helper/tun-device.h"

#include <arpa/inet.h>
#include <array>
#include <cstdio>
#include <exception>
#include <fcntl.h>
#include <functional>
#include <net/if.h>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cap-ng.h>
#include <doctest/doctest.h>

#include "lib/unique-fd.h"
#include "tun-helper/link-config.h"
#include "tun-helper/netlink.h"
#include "tun-helper/policy-rule.h"
#include "tun-helper/tun-error.h"
#include "tun-helper/tun-interface.h"

namespace fips::tunhelper {
namespace {

constexpr const char* TEST_NAME = "fips-test0";

bool haveRoot() {
  if (geteuid() == 0) return true;
  MESSAGE("skipped: needs root (creates TUN devices in a private network namespace)");
  return false;
}

// Moves the test process into a new, empty network namespace; the previous test's devices
// and rules vanish with the old one.
void enterFreshNetns() {
  REQUIRE(unshare(CLONE_NEWNET) == 0);
}

struct CommandResult {
  int status = -1;
  std::string output;
};

// Runs a shell command (iproute2) in the current network namespace; output includes stderr.
CommandResult run(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 512> buf{};
  size_t got = 0;
  while ((got = fread(buf.data(), 1, buf.size(), pipe)) > 0) result.output.append(buf.data(), got);
  result.status = pclose(pipe);
  return result;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs fn in a forked child (which never touches doctest) and returns the string it produced.
std::string inChild(const std::function<std::string()>& fn) {
  std::array<int, 2> fds{};
  REQUIRE(pipe2(fds.data(), O_CLOEXEC) == 0);
  UniqueFd readEnd(fds[0]);
  UniqueFd writeEnd(fds[1]);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::string result;
    try {
      result = fn();
    } catch (const std::exception& e) {
      result = std::string("unexpected exception: ") + e.what();
    }
    ssize_t written = write(writeEnd.get(), result.data(), result.size());
    _exit(written == static_cast<ssize_t>(result.size()) ? 0 : 1);
  }
  writeEnd.reset();
  std::string out;
  std::array<char, 512> buf{};
  ssize_t got = 0;
  while ((got = read(readEnd.get(), buf.data(), buf.size())) > 0) {
    out.append(buf.data(), static_cast<size_t>(got));
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  return out;
}

// What creating TunDevice(TEST_NAME) reports: its error message, or "created".
std::string createError() {
  try {
    TunDevice device(TEST_NAME);
    return "created";
  } catch (const TunError& e) {
    return e.what();
  }
}

TunSettings testSettings() {
  TunSettings settings;
  settings.name = TEST_NAME;
  settings.mtu = 1280;
  REQUIRE(inet_pton(AF_INET6, "fd12:3456:789a::1", &settings.address) == 1);
  return settings;
}

}  // namespace

TEST_CASE("TunInterface sets MTU, address, fd00::/8 route and the lookup-main rule") {
  if (!haveRoot()) return;
  enterFreshNetns();
  TunInterface tun(testSettings());
  CHECK(fcntl(tun.fd(), F_GETFD) >= 0);
  CHECK(tun.ifindex() == if_nametoindex(TEST_NAME));
  CHECK(tun.name() == TEST_NAME);
  CHECK(tun.mtu() == 1280);
  CHECK(tun.initialRuleReport().status == RuleStatus::ADDED);
  CHECK(tun.initialRuleReport().priority == FIPS_RULE_PRIORITY);

  std::string link = run("ip -o link show dev fips-test0").output;
  CHECK(contains(link, "mtu 1280"));
  CHECK(contains(link, ",UP"));
  std::string addr = run("ip -6 -o addr show dev fips-test0").output;
  CHECK(contains(addr, "inet6 fd12:3456:789a::1/128"));
  CHECK_FALSE(contains(addr, "tentative"));
  CHECK(contains(run("ip -6 route show table main").output, "fd00::/8 dev fips-test0"));
  CHECK(contains(run("ip -6 rule show").output, "5265:\tfrom all to fd00::/8 lookup main"));

  NetlinkSocket nl;
  CHECK(hasRoute(nl, {tun.ifindex(), tun.name()}, fipsPrefix()));
}

TEST_CASE("a Tailscale-like catch-all rule does not capture fd00::/8") {
  if (!haveRoot()) return;
  enterFreshNetns();
  REQUIRE(run("ip link set lo up").status == 0);
  REQUIRE(run("ip -6 route add default dev lo table 52").status == 0);
  REQUIRE(run("ip -6 rule add pref 5270 table 52").status == 0);
  TunInterface tun(testSettings());
  CHECK(contains(run("ip -6 route get fd00::1").output, "dev fips-test0"));

  // Without the guard the catch-all wins, so the check above is not vacuous.
  NetlinkSocket nl;
  REQUIRE(deleteMainTableRule(nl, fipsPrefix(), FIPS_RULE_PRIORITY));
  CHECK(contains(run("ip -6 route get fd00::1").output, "dev lo"));
}

TEST_CASE("a catch-all at pref 100, before and after start: the rule moves ahead of it") {
  if (!haveRoot()) return;
  enterFreshNetns();
  REQUIRE(run("ip link set lo up").status == 0);
  REQUIRE(run("ip -6 route add blackhole default table 100").status == 0);
  REQUIRE(run("ip -6 rule add from all lookup 100 pref 100").status == 0);
  {
    TunInterface tun(testSettings());
    CHECK(tun.initialRuleReport().priority == 99);
    REQUIRE(tun.initialRuleReport().newCaptures.size() == 1);
    CHECK(tun.initialRuleReport().newCaptures.front().text() == "pref 100 from all lookup 100");
    CHECK(contains(run("ip -6 rule show").output, "99:\tfrom all to fd00::/8 lookup main"));
    CHECK(contains(run("ip -6 route get fd00::1").output, "dev fips-test0"));
  }
  CHECK_FALSE(contains(run("ip -6 rule show").output, "fd00::/8"));

  // The same catch-all added while running: at pref 5265 the guard loses until reasserted.
  REQUIRE(run("ip -6 rule del pref 100").status == 0);
  TunInterface tun(testSettings());
  CHECK(tun.initialRuleReport().priority == FIPS_RULE_PRIORITY);
  REQUIRE(run("ip -6 rule add from all lookup 100 pref 100").status == 0);
  CHECK_FALSE(contains(run("ip -6 route get fd00::1").output, "dev fips-test0"));
  GuardReport report = tun.reassertRule();
  CHECK(report.priority == 99);
  CHECK(report.movedFrom == std::vector<uint32_t>{FIPS_RULE_PRIORITY});
  CHECK(report.newCaptures.size() == 1);
  CHECK(contains(run("ip -6 route get fd00::1").output, "dev fips-test0"));
  // Nothing changed: nothing done, nothing reported again.
  report = tun.reassertRule();
  CHECK(report.movedFrom.empty());
  CHECK(report.newCaptures.empty());
  CHECK_FALSE(report.added);
  // A deleted guard rule comes back; a gone catch-all sends it back to 5265.
  REQUIRE(run("ip -6 rule del pref 99").status == 0);
  CHECK(tun.reassertRule().added);
  REQUIRE(run("ip -6 rule del pref 100").status == 0);
  report = tun.reassertRule();
  CHECK(report.priority == FIPS_RULE_PRIORITY);
  CHECK(report.movedFrom == std::vector<uint32_t>{99});
  std::string rules = run("ip -6 rule show").output;
  CHECK(contains(rules, "5265:\tfrom all to fd00::/8 lookup main"));
  CHECK_FALSE(contains(rules, "99:\tfrom all to fd00::/8"));
}

TEST_CASE("disabled IPv6 names the sysctls a new device inherits") {
  if (!haveRoot()) return;
  enterFreshNetns();
  REQUIRE(run("sysctl -qw net.ipv6.conf.default.disable_ipv6=1").status == 0);
  try {
    TunInterface tun(testSettings());
    FAIL("created with IPv6 disabled");
  } catch (const TunError& e) {
    const std::string text = e.what();
    CHECK(contains(text, "net.ipv6.conf.default.disable_ipv6"));
    CHECK(contains(text, "net.ipv6.conf.all.disable_ipv6"));
    CHECK_FALSE(contains(text, "conf.fips-test0"));
  }
}

TEST_CASE("teardown leaves no link, route or rule, even while the fd is held elsewhere") {
  if (!haveRoot()) return;
  enterFreshNetns();
  UniqueFd held;
  {
    TunInterface tun(testSettings());
    held.reset(dup(tun.fd()));
    REQUIRE(held);
  }
  NetlinkSocket nl;
  CHECK_FALSE(findLink(nl, TEST_NAME).has_value());
  CHECK(run("ip link show dev fips-test0").status != 0);
  CHECK_FALSE(contains(run("ip -6 rule show").output, "fd00::/8"));
  CHECK_FALSE(contains(run("ip -6 route show table all").output, "fd00::/8"));

  TunDevice device(TEST_NAME);
  held.reset(dup(device.fd()));
  device.remove();
  CHECK(device.fd() == -1);
  CHECK_FALSE(findLink(nl, TEST_NAME).has_value());
  CHECK_NOTHROW(device.remove());
}

TEST_CASE("a failed step names itself and removes the half-made interface") {
  if (!haveRoot()) return;
  enterFreshNetns();
  REQUIRE(run("ip link add fips-veth0 type veth peer name fips-veth1").status == 0);
  REQUIRE(run("ip link set fips-veth0 up").status == 0);
  REQUIRE(run("ip -6 route add fd00::/8 dev fips-veth0").status == 0);
  CHECK_THROWS_WITH_AS(TunInterface{testSettings()},
                       "add route fd00::/8 dev fips-test0: file exists (another route for it is "
                       "already in the main table)",
                       TunError);
  NetlinkSocket nl;
  CHECK_FALSE(findLink(nl, TEST_NAME).has_value());
  CHECK_FALSE(contains(run("ip -6 rule show").output, "fd00::/8"));
}

TEST_CASE("a taken name is a clear error and the existing link is left alone") {
  if (!haveRoot()) return;
  enterFreshNetns();
  REQUIRE(run("ip link add fips-test0 type veth peer name fips-peer0").status == 0);
  CHECK(createError() ==
        "cannot create TUN fips-test0: an interface named fips-test0 already exists (kind "
        "veth); remove it or choose another tun.name");
  CHECK(run("ip link show dev fips-test0").status == 0);
  REQUIRE(removeLinkByName(TEST_NAME));

  TunDevice first(TEST_NAME);
  CHECK(createError() ==
        "cannot create TUN fips-test0: an interface named fips-test0 already exists (kind "
        "tun); remove it or choose another tun.name");
  CHECK(fcntl(first.fd(), F_GETFD) >= 0);
  NetlinkSocket nl;
  CHECK(findLink(nl, TEST_NAME).has_value());
}

TEST_CASE("removeLinkByName and removeStaleInterface clean up after a crash") {
  if (!haveRoot()) return;
  enterFreshNetns();
  REQUIRE(run("ip link add fips-test0 type veth peer name fips-peer0").status == 0);
  CHECK(removeLinkByName(TEST_NAME));
  CHECK(run("ip link show dev fips-test0").status != 0);
  CHECK_FALSE(removeLinkByName(TEST_NAME));

  // A persistent TUN and the rule, as a crashed helper can leave them.
  REQUIRE(run("ip tuntap add dev fips-test0 mode tun").status == 0);
  REQUIRE(run("ip -6 rule add to fd00::/8 lookup main pref 5265").status == 0);
  REQUIRE(run("ip -6 rule add to fd00::/8 lookup main pref 99").status == 0);  // a moved one
  CHECK(removeStaleInterface(TEST_NAME));
  CHECK(run("ip link show dev fips-test0").status != 0);
  CHECK_FALSE(contains(run("ip -6 rule show").output, "fd00::/8"));
  CHECK_FALSE(removeStaleInterface(TEST_NAME));
}

TEST_CASE("without CAP_NET_ADMIN the error names the missing capability") {
  if (!haveRoot()) return;
  enterFreshNetns();
  REQUIRE(run("ip link add fips-test0 type veth peer name fips-peer0").status == 0);
  auto withoutCaps = [](const std::function<std::string()>& fn) {
    return inChild([&fn]() -> std::string {
      capng_clear(CAPNG_SELECT_CAPS);
      if (capng_apply(CAPNG_SELECT_CAPS) != 0) return "capng_apply failed";
      return fn();
    });
  };
  CHECK(withoutCaps([]() -> std::string {
          try {
            removeLinkByName(TEST_NAME);
            return "removed";
          } catch (const TunError& e) {
            return e.what();
          }
        }) == "delete link fips-test0: operation not permitted (needs CAP_NET_ADMIN)");
  REQUIRE(removeLinkByName(TEST_NAME));
  CHECK(withoutCaps(createError) ==
        "cannot create TUN fips-test0: operation not permitted (needs CAP_NET_ADMIN)");
}

TEST_CASE("a missing /dev/net/tun is named with the likely cause") {
  if (!haveRoot()) return;
  enterFreshNetns();
  std::string message = inChild([]() -> std::string {
    if (unshare(CLONE_NEWNS) != 0) return "unshare(CLONE_NEWNS) failed";
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return "mount failed";
    if (mount("tmpfs", "/dev/net", "tmpfs", 0, nullptr) != 0) return "mount tmpfs failed";
    return createError();
  });
  CHECK(message ==
        "cannot create TUN fips-test0: /dev/net/tun: no such file or directory (is the tun "
        "module loaded?)");
}

TEST_CASE("settings are validated before anything is created") {
  TunSettings lowMtu = testSettings();
  lowMtu.mtu = 1200;
  CHECK_THROWS_WITH_AS(TunInterface{lowMtu},
                       "TUN fips-test0: MTU 1200 is below the IPv6 minimum of 1280", TunError);
  TunSettings notFips = testSettings();
  REQUIRE(inet_pton(AF_INET6, "2001:db8::1", &notFips.address) == 1);
  CHECK_THROWS_WITH_AS(TunInterface{notFips},
                       "TUN fips-test0: address 2001:db8::1/128 is not in fd00::/8", TunError);
  CHECK_THROWS_WITH_AS(TunDevice{"name-too-long-0123"},
                       "cannot create TUN name-too-long-0123: invalid interface name (1-15 "
                       "characters, no '/', ':', '%' or spaces)",
                       TunError);
  CHECK_THROWS_AS(TunDevice{"a/b"}, TunError);
}

}  // namespace fips::tunhelper
