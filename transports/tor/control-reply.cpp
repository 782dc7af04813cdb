// SPDX-License-Identifier: MIT
// Control-port reply parser (see control-reply.h; control-spec §2.3, §2.4).
//
//   Reply     = *(MidReplyLine / DataReplyLine) EndReplyLine
//   MidReply  = StatusCode "-" ReplyLine
//   DataReply = StatusCode "+" ReplyLine CmdData   (lines up to "." CRLF)
//   EndReply  = StatusCode SP ReplyLine
#include "transports/tor/control-reply.h"

#include <fmt/format.h>

namespace fips::transport::tor {

namespace {

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

void ControlReplyParser::fail(std::string why) {
  broken_ = std::move(why);
  partial_.clear();
  current_ = {};
  inData_ = false;
}

void ControlReplyParser::feed(std::span<const uint8_t> bytes) {
  for (uint8_t b : bytes) {
    if (!broken_.empty()) return;
    if (b != '\n') {
      partial_.push_back(static_cast<char>(b));
      if (partial_.size() >= CONTROL_MAX_LINE) fail("control line too long");
      continue;
    }
    // Tor ends lines with CRLF; a bare LF is read the same way.
    if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
    parseLine(std::move(partial_));
    partial_.clear();
  }
}

void ControlReplyParser::parseLine(std::string line) {
  currentBytes_ += line.size() + 2;
  if (currentBytes_ > CONTROL_MAX_REPLY) return fail("control reply too long");
  if (inData_) {
    if (line == ".") {
      inData_ = false;
      return;
    }
    // §2.4: a data line starting with "." has one more "." prepended.
    if (!line.empty() && line[0] == '.') line.erase(0, 1);
    auto& data = *current_.lines.back().data;
    if (dataStarted_) data.push_back('\n');
    dataStarted_ = true;
    data += line;
    return;
  }
  if (line.size() < 4 || !isDigit(line[0]) || !isDigit(line[1]) || !isDigit(line[2])) {
    return fail("control line without a status code");
  }
  const int status = (line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0');
  if (!current_.lines.empty() && status != current_.status) {
    return fail(fmt::format("status {} inside a {} reply", status, current_.status));
  }
  current_.status = status;
  const char separator = line[3];
  ControlLine parsed{line.substr(4), std::nullopt};
  switch (separator) {
    case '-':
      current_.lines.push_back(std::move(parsed));
      return;
    case '+':
      parsed.data.emplace();
      current_.lines.push_back(std::move(parsed));
      inData_ = true;
      dataStarted_ = false;
      return;
    case ' ':
      current_.lines.push_back(std::move(parsed));
      ready_.push_back(std::move(current_));
      current_ = {};
      currentBytes_ = 0;
      return;
    default:
      return fail("control line with an unknown separator");
  }
}

std::optional<ControlReply> ControlReplyParser::next() {
  if (readyTaken_ == ready_.size()) {
    ready_.clear();
    readyTaken_ = 0;
    return std::nullopt;
  }
  return std::move(ready_[readyTaken_++]);
}

}  // namespace fips::transport::tor
