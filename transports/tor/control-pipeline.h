// SPDX-License-Identifier: MIT
// Commands to tor's control port and their replies, matched in order
// (control-spec §2.1: tor answers each command in turn; 6xx events may come
// between), without I/O: the worker's event loop writes output() and feeds
// what it reads, and each reply goes to its command's callback. Runs in
// fips-transport-tor; tor's bytes are parsed by ControlReplyParser.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "transports/tor/control-reply.h"

namespace fips::transport::tor {

class ControlPipeline {
 public:
  using ReplyHandler = std::function<void(const ControlReply&)>;

  // `onEvent` receives the asynchronous 6xx replies (may be empty).
  explicit ControlPipeline(ReplyHandler onEvent = {});

  // Queues `line` (CRLF added; a line holding CR or LF is refused with
  // false) and calls `onReply` with its reply. Commands may be queued
  // before earlier replies came (tor answers them in order).
  bool send(std::string_view line, ReplyHandler onReply);

  // Bytes to write to tor now, and how many of them were written. Written
  // bytes are wiped (they may hold a password or cookie).
  std::span<const uint8_t> output() const;
  void sent(size_t n);

  // Parses bytes read from tor and calls the handlers of whole replies. A
  // reply with no command waiting for it breaks the pipeline.
  void feed(std::span<const uint8_t> bytes);

  // Why the connection cannot go on ("" while it can).
  const std::string& broken() const;
  // Commands sent or queued whose reply has not come yet.
  size_t waiting() const { return handlers_.size(); }

 private:
  ReplyHandler onEvent_;
  std::vector<uint8_t> out_;
  size_t outSent_ = 0;
  std::deque<ReplyHandler> handlers_;
  ControlReplyParser parser_;
  std::string broken_;
};

}  // namespace fips::transport::tor
