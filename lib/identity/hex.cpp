// SPDX-License-Identifier: MIT
// Hex encoding (see hex.h). Runs in any process; decoder inputs are untrusted.
#include "lib/identity/hex.h"

namespace fips::identity {

namespace {

constexpr std::string_view HEX_DIGITS = "0123456789abcdef";

// The value of one hex digit, or -1.
int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool isHexDigit(char c) {
  return hexValue(c) >= 0;
}

std::string toHex(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    out.push_back(HEX_DIGITS[b >> 4]);
    out.push_back(HEX_DIGITS[b & 0x0f]);
  }
  return out;
}

bool decodeHexInto(std::string_view text, std::span<uint8_t> out) {
  if (text.size() != out.size() * 2) return false;
  for (size_t i = 0; i < out.size(); ++i) {
    int hi = hexValue(text[2 * i]);
    int lo = hexValue(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<uint8_t>((hi << 4) | lo);
  }
  return true;
}

}  // namespace fips::identity
