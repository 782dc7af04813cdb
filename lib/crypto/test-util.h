// SPDX-License-Identifier: MIT
// Helpers shared by the crypto and noise unit tests: hex decoding of vector
// strings and loading of files under FIPS_TEST_VECTORS. Test code only; inputs
// are the checked-in vector files.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fips::crypto::test {

// Decodes a hex string (either case); throws on malformed input (test bug).
inline std::vector<uint8_t> fromHex(std::string_view hex) {
  auto nibble = [](char c) -> uint8_t {
    if (c >= '0' && c <= '9') return static_cast<uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<uint8_t>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<uint8_t>(c - 'A' + 10);
    throw std::invalid_argument("bad hex digit");
  };
  if (hex.size() % 2 != 0) throw std::invalid_argument("odd hex length");
  std::vector<uint8_t> out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<uint8_t>((nibble(hex[2 * i]) << 4U) | nibble(hex[2 * i + 1]));
  }
  return out;
}

// Lower-case hex of bytes.
template <typename Bytes>
std::string toHex(const Bytes& bytes) {
  static constexpr char DIGITS[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out.push_back(DIGITS[b >> 4U]);
    out.push_back(DIGITS[b & 0x0FU]);
  }
  return out;
}

// Reads a whole file from the test-vector folder.
inline std::string readVectorFile(const std::string& name) {
  std::ifstream in(std::string(FIPS_TEST_VECTORS) + "/" + name);
  if (!in) throw std::runtime_error("cannot open vector file " + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace fips::crypto::test
