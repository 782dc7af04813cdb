// SPDX-License-Identifier: MIT
// The reference's line-delimited JSON control protocol (spec 08 §1,
// reference docs/reference/control-socket.md), framing and envelope: one
// request line of at most MAX_REQUEST_BYTES, {"command": ..., "params":
// {...}}; one response line, {"status":"ok","data":...} or
// {"status":"error","message":"..."}. Runs on the control thread of
// fips-router; every byte comes from a local client and is untrusted:
// nothing here throws on input.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include <kj/time.h>

#include "router/control/json/json.h"

namespace fips::router::control {

using json::Json;

// The reference's I/O timeout: for the request read, for a command's
// answer from the data plane, and for the response write.
constexpr kj::Duration JSON_IO_TIMEOUT = 5 * kj::SECONDS;

// A request line counts its '\n'; longer is refused (the reference's 4 KB).
constexpr size_t MAX_REQUEST_BYTES = 4096;

// Collects one request line from the bytes a client sends, never holding
// more than MAX_REQUEST_BYTES + 1 bytes.
class RequestLine {
 public:
  enum class State { READING, COMPLETE, TOO_LARGE };

  // Where the next read may put its bytes, and how many (>= 1 while READING).
  char* space() { return buffer_.data() + size_; }
  size_t room() const { return buffer_.size() - size_; }
  // Takes `bytes` (<= room()) just read into space().
  State received(size_t bytes);
  // The request without its '\n': valid once COMPLETE, or at end of stream
  // while READING (the reference takes a last line without '\n').
  std::string_view line() const { return {buffer_.data(), lineSize_}; }
  State state() const { return state_; }
  // True once the line's '\n' has been received (also for a TOO_LARGE one).
  bool ended() const { return ended_; }

 private:
  std::array<char, MAX_REQUEST_BYTES + 1> buffer_{};
  size_t size_ = 0;
  size_t lineSize_ = 0;
  State state_ = State::READING;
  bool ended_ = false;
};

// A parsed request. `params` is null when the request has none.
struct JsonRequest {
  std::string command;
  Json params;
};

// Parses one request line; on failure, the error message to answer with
// ("invalid request: ..."). Unknown top-level fields are ignored, as in the
// reference; `command` must be a string.
std::variant<JsonRequest, std::string> parseRequest(std::string_view line);

// {"status":"ok","data":data}
Json okResponse(Json data);
// {"status":"error","message":message}, a word of `message` in a secret
// key's form withheld (identity::withoutSecretKeys: an nsec pasted as a
// command or metric is not echoed).
Json errorResponse(std::string message);
// The response as one line, '\n'-terminated; bytes that are not UTF-8 in
// any string become U+FFFD rather than failing.
std::string responseLine(const Json& response);

}  // namespace fips::router::control
