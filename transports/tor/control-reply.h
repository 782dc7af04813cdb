// SPDX-License-Identifier: MIT
// Replies of tor's control port (control-spec §2.3, §2.4): a sans-IO parser
// that turns the byte stream into whole replies ("250-...", "250+..." with a
// dot-encoded data block, and the final "250 ..."), asynchronous events
// (6xx) included. Runs in fips-transport-tor; tor's bytes are trusted no
// more than any peer's: a malformed stream marks the parser broken with a
// reason, and sizes are capped.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fips::transport::tor {

// Longest control line we accept, CRLF included (tor's own lines are far shorter).
constexpr size_t CONTROL_MAX_LINE = 16384;
// Most bytes one reply (all its lines and data blocks) may hold.
constexpr size_t CONTROL_MAX_REPLY = 1 << 20;

// One line of a reply: the text after "NNN-", "NNN+" or "NNN ", and for a
// "NNN+" line the data block that followed it (dot-unescaped, lines joined
// with "\n", without the final ".").
struct ControlLine {
  std::string text;
  std::optional<std::string> data;

  bool operator==(const ControlLine&) const = default;
};

// A whole reply: its status code (the same on every line, §2.3) and lines.
struct ControlReply {
  int status = 0;
  std::vector<ControlLine> lines;

  bool ok() const { return status == 250; }
  bool isEvent() const { return status >= 600 && status < 700; }
  // The text of the last line, e.g. "OK" or "Authentication failed".
  std::string message() const { return lines.empty() ? std::string() : lines.back().text; }
  bool operator==(const ControlReply&) const = default;
};

// Splits the control connection's bytes into replies. Feed what was read,
// then take replies with next() until it returns nullopt.
class ControlReplyParser {
 public:
  // Buffers `bytes`; parses as far as they go.
  void feed(std::span<const uint8_t> bytes);
  // The next whole reply, in order, or nullopt.
  std::optional<ControlReply> next();
  // Why the stream cannot be parsed any further ("" while it can). Once
  // broken, feed() ignores input and next() returns only replies already whole.
  const std::string& broken() const { return broken_; }

 private:
  void parseLine(std::string line);
  void fail(std::string why);

  std::string partial_;  // bytes of a line not yet ended by LF
  ControlReply current_;
  size_t currentBytes_ = 0;
  bool inData_ = false;       // reading the data block of a "NNN+" line
  bool dataStarted_ = false;  // that block has a line already
  std::vector<ControlReply> ready_;
  size_t readyTaken_ = 0;
  std::string broken_;
};

}  // namespace fips::transport::tor
