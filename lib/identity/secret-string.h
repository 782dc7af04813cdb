// SPDX-License-Identifier: MIT
// SecretString: text that is a secret (an nsec, a key file's contents),
// wiped when destroyed. Used by the supervisor, the router and fipsctl.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <openssl/crypto.h>

namespace fips::identity {

// Move-only owner of secret text. The whole buffer, up to its capacity, is
// cleansed on destruction and after a move, so short strings kept inline by
// std::string are wiped too. Build the string in one allocation (reserve
// first) so no earlier buffer is left behind.
class SecretString {
 public:
  explicit SecretString(std::string text) : text_(std::move(text)) {}
  ~SecretString() { wipe(); }
  SecretString(const SecretString&) = delete;
  SecretString& operator=(const SecretString&) = delete;
  SecretString(SecretString&& other) noexcept : text_(std::move(other.text_)) { other.wipe(); }
  SecretString& operator=(SecretString&& other) noexcept {
    if (this != &other) {
      wipe();
      text_ = std::move(other.text_);
      other.wipe();
    }
    return *this;
  }

  std::string_view view() const { return text_; }

 private:
  void wipe() noexcept {
    text_.resize(text_.capacity());
    OPENSSL_cleanse(text_.data(), text_.size());
    text_.clear();
  }

  std::string text_;
};

}  // namespace fips::identity
