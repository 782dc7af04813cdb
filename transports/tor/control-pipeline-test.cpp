// SPDX-License-Identifier: MIT
#include "transports/tor/control-pipeline.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

using fips::transport::tor::ControlPipeline;
using fips::transport::tor::ControlReply;

namespace {

void feedText(ControlPipeline& p, std::string_view text) {
  p.feed(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

std::string takeOutput(ControlPipeline& p) {
  const auto out = p.output();
  std::string text(out.begin(), out.end());
  p.sent(out.size());
  return text;
}

}  // namespace

TEST_CASE("control pipeline: replies reach their commands in order, events aside") {
  std::vector<std::string> seen;
  ControlPipeline p([&](const ControlReply& r) { seen.push_back("event " + r.message()); });
  CHECK(p.send("PROTOCOLINFO 1",
               [&](const ControlReply& r) { seen.push_back("pi " + r.message()); }));
  CHECK(p.send("GETINFO version",
               [&](const ControlReply& r) { seen.push_back("gi " + r.message()); }));
  CHECK(takeOutput(p) == "PROTOCOLINFO 1\r\nGETINFO version\r\n");
  CHECK(p.waiting() == 2);
  feedText(p, "250-PROTOCOLINFO 1\r\n250 OK\r\n650 BW 1 2\r\n250-version=0.4.9.11\r\n");
  CHECK(seen == std::vector<std::string>{"pi OK", "event BW 1 2"});
  feedText(p, "250 OK\r\n");
  CHECK(seen.back() == "gi OK");
  CHECK(p.waiting() == 0);
  CHECK(p.broken().empty());
}

TEST_CASE("control pipeline: a handler may send the next command") {
  ControlPipeline p;
  std::string last;
  p.send("AUTHCHALLENGE SAFECOOKIE 00", [&](const ControlReply&) {
    p.send("AUTHENTICATE 11", [&](const ControlReply& r) { last = r.message(); });
  });
  takeOutput(p);
  feedText(p, "250 AUTHCHALLENGE SERVERHASH=00 SERVERNONCE=00\r\n");
  CHECK(takeOutput(p) == "AUTHENTICATE 11\r\n");
  feedText(p, "250 OK\r\n");
  CHECK(last == "OK");
}

TEST_CASE("control pipeline: partial writes, refused lines, stray replies") {
  ControlPipeline p;
  CHECK_FALSE(p.send("GETINFO version\r\nSIGNAL HALT", {}));
  CHECK(p.output().empty());
  p.send("GETINFO version", {});
  p.sent(3);
  CHECK(takeOutput(p) == "INFO version\r\n");
  feedText(p, "250 OK\r\n250 OK\r\n");
  CHECK(p.broken() == "a reply to no command");
  CHECK_FALSE(p.send("GETINFO version", {}));
  ControlPipeline garbled;
  garbled.send("GETINFO version", {});
  feedText(garbled, "HTTP/1.0 400\r\n");
  CHECK(garbled.broken() == "control line without a status code");
}
