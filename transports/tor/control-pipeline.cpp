// SPDX-License-Identifier: MIT
// Control-port command pipeline (see control-pipeline.h).
#include "transports/tor/control-pipeline.h"

#include <openssl/crypto.h>

namespace fips::transport::tor {

ControlPipeline::ControlPipeline(ReplyHandler onEvent) : onEvent_(std::move(onEvent)) {}

bool ControlPipeline::send(std::string_view line, ReplyHandler onReply) {
  if (line.find_first_of("\r\n") != std::string_view::npos || !broken().empty()) return false;
  out_.insert(out_.end(), line.begin(), line.end());
  out_.push_back('\r');
  out_.push_back('\n');
  handlers_.push_back(std::move(onReply));
  return true;
}

std::span<const uint8_t> ControlPipeline::output() const {
  return std::span<const uint8_t>(out_).subspan(outSent_);
}

void ControlPipeline::sent(size_t n) {
  outSent_ = std::min(out_.size(), outSent_ + n);
  if (outSent_ == out_.size()) {
    OPENSSL_cleanse(out_.data(), out_.size());
    out_.clear();
    outSent_ = 0;
  }
}

void ControlPipeline::feed(std::span<const uint8_t> bytes) {
  if (!broken_.empty()) return;
  parser_.feed(bytes);
  while (auto reply = parser_.next()) {
    if (reply->isEvent()) {
      if (onEvent_) onEvent_(*reply);
      continue;
    }
    if (handlers_.empty()) {
      broken_ = "a reply to no command";
      return;
    }
    auto handler = std::move(handlers_.front());
    handlers_.pop_front();
    if (handler) handler(*reply);
  }
}

const std::string& ControlPipeline::broken() const {
  return broken_.empty() ? parser_.broken() : broken_;
}

}  // namespace fips::transport::tor
