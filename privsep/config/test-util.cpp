// SPDX-License-Identifier: MIT
// Helpers for the fips.yaml loader's unit tests. Test-only code.
#include "privsep/config/test-util.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <stdlib.h>

namespace fips::privsep::config::test {

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/fips-config-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ignored);
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::write(const std::string& name, const std::string& content) const {
  const std::filesystem::path file = std::filesystem::path(path_) / name;
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + file.string());
  return file.string();
}

std::vector<std::string> loadErrors(const std::string& yaml, const std::string& name) {
  try {
    loadString(yaml, name);
  } catch (const ConfigError& e) {
    return e.messages();
  }
  return {"<no error>"};
}

std::string firstError(const std::string& yaml, const std::string& name) {
  return loadErrors(yaml, name).front();
}

std::vector<std::string> loadWarnings(const std::string& yaml, const std::string& name) {
  return loadString(yaml, name).warnings;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace fips::privsep::config::test
