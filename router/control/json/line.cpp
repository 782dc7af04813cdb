// SPDX-License-Identifier: MIT
// JSON-line protocol framing and envelope (see line.h).
#include "router/control/json/line.h"

#include <cstring>

#include "lib/identity/secret-text.h"

namespace fips::router::control {

RequestLine::State RequestLine::received(size_t bytes) {
  if (state_ != State::READING) return state_;
  const size_t start = size_;
  size_ += bytes;
  const void* newline = std::memchr(buffer_.data() + start, '\n', bytes);
  if (newline != nullptr) {
    ended_ = true;
    lineSize_ = static_cast<size_t>(static_cast<const char*>(newline) - buffer_.data());
    // The line counts its '\n', as the reference's total does.
    state_ = lineSize_ + 1 > MAX_REQUEST_BYTES ? State::TOO_LARGE : State::COMPLETE;
  } else if (size_ > MAX_REQUEST_BYTES) {
    state_ = State::TOO_LARGE;
  } else {
    lineSize_ = size_;
  }
  return state_;
}

std::variant<JsonRequest, std::string> parseRequest(std::string_view line) {
  using Result = std::variant<JsonRequest, std::string>;
  Json doc = Json::parse(line, nullptr, false);
  if (doc.is_discarded()) {
    // nlohmann's parser text ("[json.exception.parse_error.101] ...") says
    // little to an operator; the reference's serde text is not ours to copy.
    return Result(std::in_place_index<1>, "invalid request: not JSON");
  }
  if (!doc.is_object()) {
    return Result(std::in_place_index<1>,
                  "invalid request: expected an object with a \"command\" field");
  }
  auto command = doc.find("command");
  if (command == doc.end()) {
    return Result(std::in_place_index<1>, "invalid request: missing field `command`");
  }
  if (!command->is_string()) {
    return Result(std::in_place_index<1>, "invalid request: `command` is not a string");
  }
  JsonRequest request;
  request.command = command->get<std::string>();
  auto params = doc.find("params");
  if (params != doc.end()) request.params = std::move(*params);
  return Result(std::in_place_index<0>, std::move(request));
}

Json okResponse(Json data) {
  return Json{{"status", "ok"}, {"data", std::move(data)}};
}

Json errorResponse(std::string message) {
  return Json{{"status", "error"}, {"message", identity::withoutSecretKeys(message)}};
}

std::string responseLine(const Json& response) {
  return response.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace fips::router::control
