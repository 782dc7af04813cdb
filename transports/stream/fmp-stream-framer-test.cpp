// SPDX-License-Identifier: MIT
// The FMP stream framer (spec 06 §2): every phase, a stream split at every
// byte boundary, several packets in one read, the MTU bound, and the
// non-FMP openings it must refuse (a bad version, a TLS ClientHello, an HTTP
// GET, an unknown phase, a handshake of the wrong length).
#include "transports/stream/fmp-stream-framer.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

namespace fips::transport {
namespace {

using Bytes = std::vector<uint8_t>;

// An established frame whose payload_len is `payloadLen` (32 + payloadLen bytes).
Bytes established(uint16_t payloadLen, uint8_t fill = 0x5A) {
  Bytes frame(32 + payloadLen, fill);
  frame[0] = 0x00;
  frame[1] = 0x01;  // the K flag: flags are not the framer's business
  frame[2] = static_cast<uint8_t>(payloadLen & 0xFF);
  frame[3] = static_cast<uint8_t>(payloadLen >> 8);
  return frame;
}

Bytes msg1() {
  Bytes frame(114, 0xAA);
  frame[0] = 0x01;
  frame[1] = 0;
  frame[2] = 110;
  frame[3] = 0;
  return frame;
}

Bytes msg2() {
  Bytes frame(69, 0xBB);
  frame[0] = 0x02;
  frame[1] = 0;
  frame[2] = 65;
  frame[3] = 0;
  return frame;
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes text(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

std::vector<Bytes> drain(FmpStreamFramer& framer) {
  std::vector<Bytes> out;
  while (auto frame = framer.next()) out.emplace_back(frame->begin(), frame->end());
  return out;
}

// Feeds `stream` through writable()/commit() in reads of `step` bytes.
std::vector<Bytes> readInSteps(FmpStreamFramer& framer, const Bytes& stream, size_t step) {
  std::vector<Bytes> out;
  for (size_t at = 0; at < stream.size();) {
    auto room = framer.writable();
    if (room.empty()) break;
    const size_t n = std::min<size_t>({step, room.size(), stream.size() - at});
    std::memcpy(room.data(), stream.data() + at, n);
    framer.commit(n);
    at += n;
    auto got = drain(framer);
    out.insert(out.end(), got.begin(), got.end());
  }
  return out;
}

TEST_CASE("stream framer: each phase's length comes from the prefix") {
  const uint16_t mtu = 1400;
  auto length = [&](const Bytes& b) {
    return fmpFrameLength(std::span<const uint8_t, 4>(b.data(), 4), mtu);
  };
  CHECK(length(msg1()).length == 114);
  CHECK(length(msg2()).length == 69);
  CHECK(length(established(0)).length == 32);
  CHECK(length(established(1368)).length == 1400);
  CHECK(length(established(1369)).error == FramingError::TOO_LONG);
  Bytes shortMsg1 = msg1();
  shortMsg1[2] = 109;
  CHECK(length(shortMsg1).error == FramingError::HANDSHAKE_SIZE);
  Bytes longMsg2 = msg2();
  longMsg2[3] = 1;
  CHECK(length(longMsg2).error == FramingError::HANDSHAKE_SIZE);
  for (uint8_t phase = 3; phase < 16; ++phase) {
    Bytes b = established(10);
    b[0] = phase;
    CHECK(length(b).error == FramingError::BAD_PHASE);
  }
  for (uint8_t version = 1; version < 16; ++version) {
    Bytes b = msg1();
    b[0] = static_cast<uint8_t>(version << 4 | 1);
    CHECK(length(b).error == FramingError::BAD_VERSION);
  }
}

TEST_CASE("stream framer: every phase comes out whole, in order") {
  const Bytes stream = concat({msg1(), msg2(), established(0), established(1368, 0x11)});
  FmpStreamFramer framer(1400);
  framer.feed(stream);
  auto got = drain(framer);
  REQUIRE(got.size() == 4);
  CHECK(got[0] == msg1());
  CHECK(got[1] == msg2());
  CHECK(got[2] == established(0));
  CHECK(got[3] == established(1368, 0x11));
  CHECK_FALSE(framer.broken());
  CHECK(framer.buffered() == 0);
  CHECK(framer.frames() == 4);
}

TEST_CASE("stream framer: a stream split at every byte boundary gives the same packets") {
  const Bytes stream = concat({msg1(), established(100, 0x22), msg2(), established(7, 0x33)});
  const std::vector<Bytes> want = {msg1(), established(100, 0x22), msg2(), established(7, 0x33)};
  for (size_t cut = 0; cut <= stream.size(); ++cut) {
    CAPTURE(cut);
    FmpStreamFramer framer(1400);
    framer.feed(std::span(stream).first(cut));
    auto got = drain(framer);
    framer.feed(std::span(stream).subspan(cut));
    auto rest = drain(framer);
    got.insert(got.end(), rest.begin(), rest.end());
    CHECK(got == want);
    CHECK(framer.buffered() == 0);
  }
  for (size_t step : {1, 2, 3, 5, 13, 64}) {
    CAPTURE(step);
    FmpStreamFramer framer(1400, 128);
    CHECK(readInSteps(framer, stream, step) == want);
  }
}

TEST_CASE("stream framer: two packets in one read, then a partial third waits") {
  const Bytes third = established(50, 0x44);
  Bytes stream = concat({established(20, 0x01), msg1()});
  stream.insert(stream.end(), third.begin(), third.begin() + 10);
  FmpStreamFramer framer(1400);
  auto room = framer.writable();
  std::memcpy(room.data(), stream.data(), stream.size());
  framer.commit(stream.size());
  auto got = drain(framer);
  REQUIRE(got.size() == 2);
  CHECK(got[0] == established(20, 0x01));
  CHECK(got[1] == msg1());
  CHECK(framer.buffered() == 10);
  framer.feed(std::span(third).subspan(10));
  got = drain(framer);
  REQUIRE(got.size() == 1);
  CHECK(got[0] == third);
}

TEST_CASE("stream framer: many reads through a small buffer keep every byte") {
  std::vector<Bytes> want;
  Bytes stream;
  for (uint16_t i = 0; i < 200; ++i) {
    Bytes f = established(static_cast<uint16_t>(i * 7 % 1369), static_cast<uint8_t>(i));
    stream.insert(stream.end(), f.begin(), f.end());
    want.push_back(std::move(f));
  }
  FmpStreamFramer framer(1400, 1000);
  CHECK(readInSteps(framer, stream, 997) == want);
}

TEST_CASE("stream framer: a length over the MTU breaks the stream") {
  FmpStreamFramer framer(1400);
  framer.feed(concat({msg1(), established(1369)}));
  auto got = drain(framer);
  CHECK(got.size() == 1);  // the packet before it still counts
  CHECK(framer.error() == FramingError::TOO_LONG);
  CHECK(framer.writable().empty());
  framer.feed(msg2());
  CHECK_FALSE(framer.next());
}

TEST_CASE("stream framer: a small MTU bounds established frames") {
  FmpStreamFramer framer(100);
  framer.feed(established(68));
  CHECK(drain(framer).size() == 1);
  framer.feed(established(69));
  CHECK(drain(framer).empty());
  CHECK(framer.error() == FramingError::TOO_LONG);
}

TEST_CASE("stream framer: a bad version breaks the stream at once") {
  FmpStreamFramer framer(1400);
  Bytes b = established(10);
  b[0] = 0x10;
  framer.feed(b);
  CHECK_FALSE(framer.next());
  CHECK(framer.error() == FramingError::BAD_VERSION);
}

TEST_CASE("stream framer: a TLS ClientHello is not FMP") {
  // A TLS 1.2 record header (handshake, version 3.1, length 512), then ClientHello.
  const Bytes hello = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03};
  FmpStreamFramer framer(1400);
  framer.feed(hello);
  CHECK_FALSE(framer.next());
  CHECK(framer.error() == FramingError::BAD_VERSION);
  CHECK(std::string_view(framingErrorName(framer.error())) == "bad version");
}

TEST_CASE("stream framer: an HTTP request is not FMP") {
  for (std::string_view request : {"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "POST /", "\r\n\r\n"}) {
    CAPTURE(request);
    FmpStreamFramer framer(1400);
    framer.feed(text(request));
    CHECK_FALSE(framer.next());
    CHECK(framer.broken());
  }
}

TEST_CASE("stream framer: fewer than 4 bytes decide nothing") {
  FmpStreamFramer framer(1400);
  framer.feed(Bytes{0x16, 0x03, 0x01});
  CHECK_FALSE(framer.next());
  CHECK_FALSE(framer.broken());
  CHECK(framer.buffered() == 3);
}

}  // namespace
}  // namespace fips::transport
