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
  explicit ConfigError(std::vector<std::string> messages, std::vector<std::string> warnings = {});

  // One line per problem, in file order.
  const std::vector<std::string>& messages() const { return messages_; }
  // The warnings found in the same run, in file order (not part of what()).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::vector<std::string> messages_;
  std::vector<std::string> warnings_;
};

}  // namespace fips::privsep::config
