// SPDX-License-Identifier: MIT
// Helpers for the identity unit tests: a temporary directory, file modes and
// the known-answer vectors. Test-only; runs in the test process.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <variant>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/identity/identity-error.h"
#include "lib/result.h"

namespace fips::identity::test {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr ? base : "/tmp") + "/fips-identity-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Permission bits of a file (not following symlinks).
// True if `part` occurs in `text`.
inline bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

inline unsigned fileMode(const std::filesystem::path& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 07777;
}

inline std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

// Number of entries in a directory.
inline size_t entryCount(const std::filesystem::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// tests/vectors/identity.json, parsed.
inline nlohmann::json identityVectors() {
  std::ifstream in(std::string(FIPS_TEST_VECTORS) + "/identity.json");
  if (!in) throw std::runtime_error("cannot open identity.json under FIPS_TEST_VECTORS");
  return nlohmann::json::parse(in);
}

inline const std::string& errorText(const std::string& error) {
  return error;
}
inline const std::string& errorText(const IdentityError& error) {
  return error.message;
}

// The value of a result the test expects to be valid; fails the test with
// the error message otherwise.
template <typename T, typename E>
T& expectValue(std::variant<T, E>& result) {
  if (const E* err = std::get_if<E>(&result)) FAIL("unexpected error: " << errorText(*err));
  return std::get<T>(result);
}

// The error of a result the test expects to fail.
template <typename T, typename E>
const E& expectError(const std::variant<T, E>& result) {
  if (!std::holds_alternative<E>(result)) FAIL("expected an error, got a value");
  return std::get<E>(result);
}

template <typename T, typename E>
T& expectValue(Result<T, E>& result) {
  if (!result.ok()) FAIL("unexpected error: " << errorText(result.error()));
  return result.value();
}

template <typename T, typename E>
const E& expectError(const Result<T, E>& result) {
  if (result.ok()) FAIL("expected an error, got a value");
  return result.error();
}

}  // namespace fips::identity::test
