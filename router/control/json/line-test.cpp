// SPDX-License-Identifier: MIT
// Unit tests of the JSON-line request framing, the request parser and the
// response envelope: oversized lines, lines split across reads, malformed
// JSON, missing or mistyped fields. Test-only code.
#include "router/control/json/line.h"

#include <cstring>
#include <string>

#include <doctest/doctest.h>

namespace fips::router::control {
namespace {

// Feeds `text` to `line` in pieces of at most `chunk` bytes, as reads would.
RequestLine::State feed(RequestLine& line, const std::string& text, size_t chunk) {
  size_t at = 0;
  while (at < text.size() && line.state() == RequestLine::State::READING) {
    const size_t n = std::min({chunk, text.size() - at, line.room()});
    std::memcpy(line.space(), text.data() + at, n);
    line.received(n);
    at += n;
  }
  return line.state();
}

std::string errorOf(std::string_view text) {
  auto parsed = parseRequest(text);
  REQUIRE(parsed.index() == 1);
  return std::get<1>(parsed);
}

}  // namespace

TEST_CASE("a request line ends at its newline, whatever the read sizes") {
  for (size_t chunk : {1, 3, 4096}) {
    RequestLine line;
    CHECK(feed(line, "{\"command\":\"show_status\"}\nrest", chunk) == RequestLine::State::COMPLETE);
    CHECK(line.line() == "{\"command\":\"show_status\"}");
    CHECK(line.ended());
  }
}

TEST_CASE("a line without newline is the request at end of stream") {
  RequestLine line;
  CHECK(feed(line, "{\"command\":\"show_peers\"}", 7) == RequestLine::State::READING);
  CHECK(line.line() == "{\"command\":\"show_peers\"}");
}

TEST_CASE("4096 bytes with the newline are accepted, one more is too large") {
  RequestLine fits;
  CHECK(feed(fits, std::string(MAX_REQUEST_BYTES - 1, ' ') + "\n", 1000) ==
        RequestLine::State::COMPLETE);
  CHECK(fits.line().size() == MAX_REQUEST_BYTES - 1);

  RequestLine over;
  CHECK(feed(over, std::string(MAX_REQUEST_BYTES, ' ') + "\n", 1000) ==
        RequestLine::State::TOO_LARGE);
  CHECK(over.ended());

  RequestLine endless;  // never a newline: refused after 4097 bytes, nothing more is held
  CHECK(feed(endless, std::string(100'000, 'x'), 4096) == RequestLine::State::TOO_LARGE);
  CHECK(endless.room() == 0);
  CHECK_FALSE(endless.ended());
}

TEST_CASE("a request names its command and may carry params") {
  auto parsed = parseRequest(
      R"({"command":"connect","params":{"npub":"npub1x","transport":"udp"},"extra":[1]})");
  REQUIRE(parsed.index() == 0);
  const JsonRequest& r = std::get<0>(parsed);
  CHECK(r.command == "connect");
  CHECK(r.params["npub"] == "npub1x");

  auto bare = parseRequest(" {\"command\": \"show_status\"}\r");
  REQUIRE(bare.index() == 0);
  CHECK(std::get<0>(bare).command == "show_status");
  CHECK(std::get<0>(bare).params.is_null());
}

TEST_CASE("malformed requests are errors, never exceptions") {
  CHECK(errorOf("{\"command\":") == "invalid request: not JSON");
  CHECK(errorOf("") == "invalid request: not JSON");
  CHECK(errorOf("not json") == "invalid request: not JSON");
  CHECK(errorOf("{\"command\":\"x\"} trailing") == "invalid request: not JSON");
  CHECK(errorOf("\xff\xfe{}") == "invalid request: not JSON");
  CHECK(errorOf(std::string(4000, '[')) == "invalid request: not JSON");
  CHECK(errorOf("[\"show_status\"]") ==
        "invalid request: expected an object with a \"command\" field");
  CHECK(errorOf("{\"not_command\":\"foo\"}") == "invalid request: missing field `command`");
  CHECK(errorOf("{\"command\":7}") == "invalid request: `command` is not a string");
}

TEST_CASE("responses are one line: ok with data, error with message") {
  CHECK(responseLine(okResponse(Json{{"state", "running"}})) ==
        "{\"status\":\"ok\",\"data\":{\"state\":\"running\"}}\n");
  CHECK(responseLine(errorResponse("unknown command: foo")) ==
        "{\"status\":\"error\",\"message\":\"unknown command: foo\"}\n");
  // A message holding bytes that are not UTF-8 still makes a valid line.
  const std::string line = responseLine(errorResponse("bad bytes: \xff"));
  CHECK(line.find("\xef\xbf\xbd") != std::string::npos);
  CHECK(line.back() == '\n');
  CHECK_FALSE(Json::parse(line, nullptr, false).is_discarded());
}

}  // namespace fips::router::control
