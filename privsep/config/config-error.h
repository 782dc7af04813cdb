// SPDX-License-Identifier: MIT
// ConfigError: the one exception the fips.yaml loader throws. Used in the fips
// supervisor and fipsctl; its messages describe operator input and never
// contain secret values.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace fips::privsep::config {

// Every problem found while loading: unreadable or non-YAML files
// ("FILE: reason") and bad values ("FILE:LINE: key.path: reason"). A loader
// call that throws it produced no Config. what() is the messages joined by
// newlines; main prints it and exits, a SIGHUP reload logs it and keeps the
// old config.
class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(std::vector<std::string> messages);

  // One line per problem, in file order.
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::vector<std::string> messages_;
};

}  // namespace fips::privsep::config
