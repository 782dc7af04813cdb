// SPDX-License-Identifier: MIT
// Helpers for the fips.yaml loader's unit tests: a scratch directory and
// "load, expect exactly this error" shorthands. Test-only code.
#pragma once

#include <string>
#include <vector>

#include "privsep/config/config-loader.h"

namespace fips::privsep::config::test {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // Writes `content` to path()/name (creating parent dirs); returns its path.
  std::string write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
};

// The messages of the ConfigError that loadString(yaml, name) throws, or
// {"<no error>"} when it loads.
std::vector<std::string> loadErrors(const std::string& yaml, const std::string& name = "fips.yaml");

// The first message of loadErrors().
std::string firstError(const std::string& yaml, const std::string& name = "fips.yaml");

// The warnings of loading `yaml` (which must load).
std::vector<std::string> loadWarnings(const std::string& yaml,
                                      const std::string& name = "fips.yaml");

// Reads a whole file.
std::string readFile(const std::string& path);

}  // namespace fips::privsep::config::test
