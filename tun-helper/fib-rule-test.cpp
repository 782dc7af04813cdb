// SPDX-License-Identifier: MIT
// Unit tests of the policy-rule model: decoding RTM_NEWRULE messages, which rules capture mesh
// traffic, and where the guard rule goes (sans-IO, no root). Test-chosen, trusted inputs.
#include "tun-helper/fib-rule.h"

#include <arpa/inet.h>

#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include <doctest/doctest.h>

#include "tun-helper/netlink.h"
#include "tun-helper/policy-guard.h"

namespace fips::tunhelper {
namespace {

// Test-chosen literals only (no REQUIRE: OWN is built before any test runs).
in6_addr addr(const char* text) {
  in6_addr a{};
  inet_pton(AF_INET6, text, &a);
  return a;
}

Ipv6Prefix prefix(const char* text, uint8_t length) {
  return {addr(text), length};
}

const in6_addr OWN = addr("fd12:3456:789a::1");

FibRule lookup(uint32_t priority, uint32_t table) {
  FibRule rule;
  rule.priority = priority;
  rule.action = FR_ACT_TO_TBL;
  rule.table = table;
  return rule;
}

FibRule guard(uint32_t priority) {
  FibRule rule = lookup(priority, RT_TABLE_MAIN);
  rule.dst = fipsPrefix();
  return rule;
}

}  // namespace

TEST_CASE("a catch-all lookup into another table captures mesh traffic") {
  CHECK(capturesMeshTraffic(lookup(100, 100), OWN));
  CHECK(lookup(100, 100).text() == "pref 100 from all lookup 100");
  FibRule blackhole = lookup(50, 0);
  blackhole.action = FR_ACT_BLACKHOLE;
  CHECK(capturesMeshTraffic(blackhole, OWN));
  FibRule to = lookup(10, 7);
  to.dst = prefix("fd00::", 16);  // part of the mesh
  CHECK(capturesMeshTraffic(to, OWN));
  to.dst = prefix("::", 0);
  CHECK(capturesMeshTraffic(to, OWN));
}

TEST_CASE("rules that cannot take mesh traffic elsewhere") {
  CHECK_FALSE(capturesMeshTraffic(lookup(0, RT_TABLE_LOCAL), OWN));
  CHECK_FALSE(capturesMeshTraffic(lookup(32766, RT_TABLE_MAIN), OWN));
  CHECK_FALSE(capturesMeshTraffic(guard(5265), OWN));
  FibRule other = lookup(100, 100);
  other.dst = prefix("2001:db8::", 32);
  CHECK_FALSE(capturesMeshTraffic(other, OWN));
  // Tailscale's 5210-5250 and wg-quick's: only the VPN's own marked packets.
  FibRule marked = lookup(5210, 52);
  marked.hasFwmark = true;
  marked.fwmark = 0x80000;
  marked.fwmask = 0xff0000;
  CHECK_FALSE(capturesMeshTraffic(marked, OWN));
  FibRule fromElsewhere = lookup(100, 100);
  fromElsewhere.src = prefix("2001:db8::", 32);
  CHECK_FALSE(capturesMeshTraffic(fromElsewhere, OWN));
  FibRule forwarded = lookup(100, 100);
  forwarded.iifname = "eth0";
  CHECK_FALSE(capturesMeshTraffic(forwarded, OWN));
  FibRule goTo = lookup(100, 0);
  goTo.action = FR_ACT_GOTO;
  CHECK_FALSE(capturesMeshTraffic(goTo, OWN));
}

TEST_CASE("inverted and narrowed rules") {
  // wg-quick: "not fwmark 51820 table 51820" takes every unmarked packet.
  FibRule wg = lookup(32764, 51820);
  wg.invert = true;
  wg.hasFwmark = true;
  wg.fwmark = 51820;
  wg.fwmask = UINT32_MAX;
  CHECK(capturesMeshTraffic(wg, OWN));
  FibRule notMesh = lookup(100, 100);
  notMesh.invert = true;
  notMesh.dst = prefix("fd00::", 8);
  CHECK_FALSE(capturesMeshTraffic(notMesh, OWN));
  FibRule tcpOnly = lookup(100, 100);
  tcpOnly.narrowed = true;
  CHECK(capturesMeshTraffic(tcpOnly, OWN));
  FibRule ownSource = lookup(100, 100);
  ownSource.src = prefix("fd12::", 16);
  CHECK(capturesMeshTraffic(ownSource, OWN));
}

TEST_CASE("placeGuard: 5265 unless a capturing rule comes first, then just ahead of it") {
  std::vector<FibRule> rules{lookup(0, RT_TABLE_LOCAL), guard(5265), lookup(32766, RT_TABLE_MAIN)};
  CHECK(placeGuard(rules, OWN).priority == FIPS_RULE_PRIORITY);
  CHECK(placeGuard(rules, OWN).captures.empty());

  rules.push_back(lookup(5270, 52));  // Tailscale's catch-all, after ours: no move
  CHECK(placeGuard(rules, OWN).priority == FIPS_RULE_PRIORITY);

  rules.push_back(lookup(100, 100));
  rules.push_back(lookup(300, 200));
  auto placement = placeGuard(rules, OWN);
  CHECK(placement.priority == 99);
  REQUIRE(placement.captures.size() == 2);
  CHECK(placement.captures.front().priority == 100);
  CHECK_FALSE(placement.outranked);

  rules.push_back(lookup(0, 9));
  placement = placeGuard(rules, OWN);
  CHECK(placement.priority == 0);
  CHECK(placement.outranked);
}

TEST_CASE("parseFibRule decodes what the kernel sends and isGuardRule recognises ours") {
  NetlinkMessage msg(RTM_NEWRULE, 0);
  auto& hdr = msg.putHeader<fib_rule_hdr>();
  hdr.family = AF_INET6;
  hdr.dst_len = 8;
  hdr.action = FR_ACT_TO_TBL;
  hdr.table = RT_TABLE_MAIN;
  const in6_addr dst = fipsPrefix().address;
  msg.putBytes(FRA_DST, &dst, sizeof(dst));
  msg.putU32(FRA_PRIORITY, 99);
  msg.putU32(FRA_TABLE, RT_TABLE_MAIN);
  auto rule = parseFibRule(*msg.header());
  REQUIRE(rule.has_value());
  CHECK(rule->priority == 99);
  CHECK(isGuardRule(*rule));
  CHECK(rule->text() == "pref 99 from all to fd00::/8 lookup main");

  NetlinkMessage marked(RTM_NEWRULE, 0);
  auto& h2 = marked.putHeader<fib_rule_hdr>();
  h2.family = AF_INET6;
  h2.action = FR_ACT_TO_TBL;
  marked.putU32(FRA_PRIORITY, 5210);
  marked.putU32(FRA_TABLE, 52);
  marked.putU32(FRA_FWMARK, 0x80000);
  marked.putU32(FRA_FWMASK, 0xff0000);
  rule = parseFibRule(*marked.header());
  REQUIRE(rule.has_value());
  CHECK(rule->table == 52);
  CHECK(rule->fwmask == 0xff0000);
  CHECK_FALSE(isGuardRule(*rule));
  CHECK_FALSE(capturesMeshTraffic(*rule, OWN));

  NetlinkMessage v4(RTM_NEWRULE, 0);
  v4.putHeader<fib_rule_hdr>().family = AF_INET;
  CHECK_FALSE(parseFibRule(*v4.header()).has_value());
}

}  // namespace fips::tunhelper
