// SPDX-License-Identifier: MIT
#include "transports/tor/control-reply.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

using fips::transport::tor::CONTROL_MAX_LINE;
using fips::transport::tor::ControlLine;
using fips::transport::tor::ControlReply;
using fips::transport::tor::ControlReplyParser;

namespace {

std::vector<ControlReply> parseAll(ControlReplyParser& p, std::string_view text) {
  p.feed(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  std::vector<ControlReply> out;
  while (auto r = p.next()) out.push_back(std::move(*r));
  return out;
}

const std::string GETINFO =
    "250-version=0.4.9.11\r\n"
    "250+config-text=\r\n"
    "SocksPort 9050\r\n"
    "..leading dot\r\n"
    ".\r\n"
    "250 OK\r\n";

}  // namespace

TEST_CASE("control reply: mid, data and end lines make one reply") {
  ControlReplyParser p;
  auto replies = parseAll(p, GETINFO);
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].status == 250);
  CHECK(replies[0].ok());
  CHECK(replies[0].lines ==
        std::vector<ControlLine>{{"version=0.4.9.11", std::nullopt},
                                 {"config-text=", "SocksPort 9050\n.leading dot"},
                                 {"OK", std::nullopt}});
  CHECK(replies[0].message() == "OK");
  CHECK(p.broken().empty());
}

TEST_CASE("control reply: split at every byte boundary parses the same") {
  ControlReplyParser whole;
  const auto expected = parseAll(whole, GETINFO + "515 Authentication failed\r\n");
  REQUIRE(expected.size() == 2);
  for (size_t cut = 0; cut <= GETINFO.size(); ++cut) {
    ControlReplyParser p;
    auto first = parseAll(p, GETINFO.substr(0, cut));
    auto rest = parseAll(p, GETINFO.substr(cut) + "515 Authentication failed\r\n");
    first.insert(first.end(), rest.begin(), rest.end());
    CHECK(first == expected);
  }
}

TEST_CASE("control reply: errors, events and bare LF") {
  ControlReplyParser p;
  auto replies = parseAll(p,
                          "650 BW 10 20\r\n"
                          "552 Unrecognized key \"nope\"\n"
                          "250 OK\r\n");
  REQUIRE(replies.size() == 3);
  CHECK(replies[0].isEvent());
  CHECK(replies[1].status == 552);
  CHECK_FALSE(replies[1].ok());
  CHECK(replies[1].message() == "Unrecognized key \"nope\"");
  CHECK(replies[2].ok());
}

TEST_CASE("control reply: a malformed stream breaks the parser with a reason") {
  struct Case {
    std::string text;
    std::string why;
  };
  const Case cases[] = {
      {"HTTP/1.0 200 OK\r\n", "control line without a status code"},
      {"25\r\n", "control line without a status code"},
      {"250*OK\r\n", "control line with an unknown separator"},
      {"250-a\r\n550 b\r\n", "status 550 inside a 250 reply"},
      {std::string(CONTROL_MAX_LINE, 'x'), "control line too long"},
  };
  for (const auto& k : cases) {
    ControlReplyParser p;
    CHECK(parseAll(p, k.text).empty());
    CHECK(p.broken() == k.why);
    CHECK(parseAll(p, "250 OK\r\n").empty());
  }
}

TEST_CASE("control reply: replies whole before a break are still returned") {
  ControlReplyParser p;
  const std::string text = "250 OK\r\ngarbage\r\n";
  p.feed(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  CHECK(p.broken() == "control line without a status code");
  auto r = p.next();
  REQUIRE(r);
  CHECK(r->ok());
  CHECK_FALSE(p.next());
}

TEST_CASE("control reply: an endless data block is capped") {
  ControlReplyParser p;
  std::string text = "250+x=\r\n";
  const std::string line(1000, 'a');
  for (int i = 0; i < 1100; ++i) text += line + "\r\n";
  CHECK(parseAll(p, text).empty());
  CHECK(p.broken() == "control reply too long");
}
