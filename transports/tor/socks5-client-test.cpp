// SPDX-License-Identifier: MIT
#include "transports/tor/socks5-client.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

using fips::transport::tor::Socks5Auth;
using fips::transport::tor::Socks5Client;
using fips::transport::tor::Socks5Error;
using fips::transport::tor::socks5ErrorText;
using fips::transport::tor::Socks5Phase;
using fips::transport::tor::socks5RequestError;
using fips::transport::tor::Socks5Target;
using Bytes = std::vector<uint8_t>;

namespace {

Bytes takeOutput(Socks5Client& c) {
  const auto out = c.output();
  Bytes b(out.begin(), out.end());
  c.sent(b.size());
  return b;
}

Bytes bytes(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

const Socks5Target ONION{"abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuvwx.onion", 443};
const Socks5Auth ISOLATION{"fips", "abc.onion:443"};
// A success reply with BND 0.0.0.0:0, as tor sends.
const Bytes OK_V4{5, 0, 0, 1, 0, 0, 0, 0, 0, 0};

// Runs a password handshake to the REPLY phase.
Socks5Client toReply(const Socks5Target& target = ONION) {
  Socks5Client c(target, ISOLATION);
  takeOutput(c);
  Bytes method{5, 2};
  c.feed(method);
  takeOutput(c);
  Bytes status{1, 0};
  c.feed(status);
  return c;
}

}  // namespace

TEST_CASE("socks5: password handshake sends RFC 1928/1929 bytes and ends DONE") {
  Socks5Client c(ONION, ISOLATION);
  CHECK(c.phase() == Socks5Phase::METHOD);
  CHECK(takeOutput(c) == Bytes{5, 1, 2});
  CHECK(c.wanted() == 2);
  Bytes method{5, 2};
  CHECK(c.feed(method) == 2);
  CHECK(c.phase() == Socks5Phase::AUTH);
  CHECK(takeOutput(c) == concat({{1, 4}, bytes("fips"), {13}, bytes("abc.onion:443")}));
  Bytes status{1, 0};
  CHECK(c.feed(status) == 2);
  CHECK(c.phase() == Socks5Phase::REPLY);
  CHECK(takeOutput(c) == concat({{5, 1, 0, 3, 62}, bytes(ONION.host), {0x01, 0xBB}}));
  CHECK(c.wanted() == 5);
  CHECK(c.feed(OK_V4) == OK_V4.size());
  CHECK(c.phase() == Socks5Phase::DONE);
  CHECK(c.error() == Socks5Error::NONE);
  CHECK(c.boundAddress() == "0.0.0.0:0");
  CHECK(c.wanted() == 0);
  CHECK(c.output().empty());
}

TEST_CASE("socks5: without credentials only method 0 is offered") {
  Socks5Client c({"example.org", 80}, std::nullopt);
  CHECK(takeOutput(c) == Bytes{5, 1, 0});
  Bytes method{5, 0};
  c.feed(method);
  CHECK(c.phase() == Socks5Phase::REPLY);
  CHECK(takeOutput(c) == concat({{5, 1, 0, 3, 11}, bytes("example.org"), {0, 80}}));
}

TEST_CASE("socks5: numeric targets go as addresses, never as names") {
  SUBCASE("IPv4") {
    auto c = toReply({"192.0.2.7", 2121});
    CHECK(takeOutput(c) == Bytes{5, 1, 0, 1, 192, 0, 2, 7, 0x08, 0x49});
  }
  SUBCASE("IPv6") {
    auto c = toReply({"2001:db8::1", 2121});
    CHECK(takeOutput(c) == Bytes{5, 1, 0, 4, 0x20, 0x01, 0x0d, 0xb8, 0, 0,    0,
                                 0, 0, 0, 0, 0,    0,    0,    0,    1, 0x08, 0x49});
  }
}

TEST_CASE("socks5: a reply split at every byte boundary parses the same") {
  const Bytes replies[] = {
      OK_V4,
      {5, 0, 0, 4, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0x08, 0x49},
      concat({{5, 0, 0, 3, 9}, bytes("proxy.lan"), {0x1F, 0x90}}),
  };
  const std::string bound[] = {"0.0.0.0:0", "[2001:db8::1]:2121", "proxy.lan:8080"};
  for (size_t r = 0; r < 3; ++r) {
    for (size_t split = 0; split <= replies[r].size(); ++split) {
      auto c = toReply();
      takeOutput(c);
      std::span<const uint8_t> all(replies[r]);
      CHECK(c.feed(all.first(split)) == split);
      CHECK(c.feed(all.subspan(split)) == replies[r].size() - split);
      CHECK(c.phase() == Socks5Phase::DONE);
      CHECK(c.boundAddress() == bound[r]);
    }
  }
}

TEST_CASE("socks5: tunnelled bytes after the reply are left to the caller") {
  auto c = toReply();
  takeOutput(c);
  const Bytes in = concat({OK_V4, bytes("FMP...")});
  CHECK(c.feed(in) == OK_V4.size());
  CHECK(c.phase() == Socks5Phase::DONE);
  CHECK(c.feed(in) == 0);
}

TEST_CASE("socks5: nothing is read while the request is not yet written") {
  Socks5Client c(ONION, ISOLATION);
  CHECK(c.wanted() == 0);
  Bytes method{5, 2};
  CHECK(c.feed(method) == 0);
  c.sent(1);
  CHECK(c.output().size() == 2);
  c.sent(2);
  CHECK(c.wanted() == 2);
}

TEST_CASE("socks5: method selection errors") {
  struct Case {
    Bytes answer;
    Socks5Error error;
  };
  const Case cases[] = {
      {{4, 2}, Socks5Error::BAD_VERSION},
      {{5, 0xFF}, Socks5Error::NO_ACCEPTABLE_METHOD},
      {{5, 0}, Socks5Error::UNOFFERED_METHOD},
      {{5, 1}, Socks5Error::UNOFFERED_METHOD},
  };
  for (const auto& k : cases) {
    Socks5Client c(ONION, ISOLATION);
    takeOutput(c);
    c.feed(k.answer);
    CHECK(c.phase() == Socks5Phase::FAILED);
    CHECK(c.error() == k.error);
    CHECK(c.output().empty());
    CHECK(c.wanted() == 0);
  }
}

TEST_CASE("socks5: an HTTP answer fails on the method selection's two bytes") {
  Socks5Client c(ONION, ISOLATION);
  takeOutput(c);
  Bytes http = bytes("HTTP/1.0 400 Bad Request\r\n");
  CHECK(c.feed(http) == 2);
  CHECK(c.error() == Socks5Error::BAD_VERSION);
}

TEST_CASE("socks5: RFC 1929 status errors") {
  for (const auto& [answer, error] : {std::pair{Bytes{1, 1}, Socks5Error::AUTH_REJECTED},
                                      std::pair{Bytes{5, 0}, Socks5Error::AUTH_BAD_VERSION}}) {
    Socks5Client c(ONION, ISOLATION);
    takeOutput(c);
    Bytes method{5, 2};
    c.feed(method);
    takeOutput(c);
    c.feed(answer);
    CHECK(c.phase() == Socks5Phase::FAILED);
    CHECK(c.error() == error);
  }
}

TEST_CASE("socks5: reply codes, tor's onion codes and malformed replies") {
  struct Case {
    Bytes reply;
    Socks5Error error;
    std::string text;
  };
  const Case cases[] = {
      {{5, 1}, Socks5Error::GENERAL_FAILURE, "general SOCKS server failure (REP 0x01)"},
      {{5, 4}, Socks5Error::HOST_UNREACHABLE, "host unreachable (REP 0x04)"},
      {{5, 5}, Socks5Error::CONNECTION_REFUSED, "connection refused (REP 0x05)"},
      {{5, 6}, Socks5Error::TTL_EXPIRED, "TTL expired (REP 0x06)"},
      {{5, 8}, Socks5Error::ADDRESS_TYPE_NOT_SUPPORTED, "address type not supported (REP 0x08)"},
      {{5, 0xF0},
       Socks5Error::ONION_DESCRIPTOR_NOT_FOUND,
       "onion service descriptor not found (REP 0xf0)"},
      {{5, 0xF6}, Socks5Error::ONION_BAD_ADDRESS, "invalid onion address (REP 0xf6)"},
      {{5, 0xF7},
       Socks5Error::ONION_INTRO_TIMEOUT,
       "onion service introduction timed out (REP 0xf7)"},
      {{5, 0x09}, Socks5Error::UNKNOWN_REPLY_CODE, "unknown SOCKS5 reply code"},
      {{5, 0xF8}, Socks5Error::UNKNOWN_REPLY_CODE, "unknown SOCKS5 reply code"},
      {{5, 0, 1}, Socks5Error::BAD_RESERVED, "proxy's reply has a non-zero reserved byte"},
      {{5, 0, 0, 2}, Socks5Error::BAD_ADDRESS_TYPE, "proxy's reply has an unknown address type"},
      {{0x48, 0x54}, Socks5Error::BAD_VERSION, "proxy answered with a version other than 5"},
  };
  for (const auto& k : cases) {
    auto c = toReply();
    takeOutput(c);
    // An error ends the reply at once: the proxy may close without the rest.
    CHECK(c.feed(k.reply) == k.reply.size());
    CHECK(c.phase() == Socks5Phase::FAILED);
    CHECK(c.error() == k.error);
    CHECK(socks5ErrorText(c.error()) == k.text);
  }
}

TEST_CASE("socks5: fail() ends a handshake once; a finished one stays as it is") {
  Socks5Client c(ONION, ISOLATION);
  c.fail(Socks5Error::PROXY_CLOSED);
  CHECK(c.phase() == Socks5Phase::FAILED);
  CHECK(c.output().empty());
  c.fail(Socks5Error::IO_ERROR);
  CHECK(c.error() == Socks5Error::PROXY_CLOSED);
  auto done = toReply();
  takeOutput(done);
  done.feed(OK_V4);
  done.fail(Socks5Error::IO_ERROR);
  CHECK(done.phase() == Socks5Phase::DONE);
}

TEST_CASE("socks5: request limits") {
  CHECK_FALSE(socks5RequestError({"a.b", 1}, Socks5Auth{"u", "p"}));
  CHECK(socks5RequestError({"", 1}, std::nullopt) == "empty host");
  CHECK(socks5RequestError({std::string(256, 'a'), 1}, std::nullopt) ==
        "host longer than 255 bytes");
  CHECK_FALSE(socks5RequestError({std::string(255, 'a'), 1}, std::nullopt));
  CHECK(socks5RequestError({std::string("a\0b", 3), 1}, std::nullopt) == "host holds a NUL byte");
  CHECK(socks5RequestError({"a.b", 0}, std::nullopt) == "port 0");
  CHECK(socks5RequestError({"a.b", 1}, Socks5Auth{"", "p"}) == "user name not 1 to 255 bytes");
  CHECK(socks5RequestError({"a.b", 1}, Socks5Auth{"u", std::string(256, 'p')}) ==
        "password not 1 to 255 bytes");
  CHECK_THROWS_AS(Socks5Client({"", 1}, std::nullopt), std::invalid_argument);
}
