// SPDX-License-Identifier: MIT
// Bech32/bech32m codec (BIP-173, BIP-350). Runs in any process; decoder input
// is untrusted. The payload is converted between 5- and 8-bit groups on the
// fly so that no intermediate buffer holds a copy of a secret payload.
#include "lib/identity/bech32.h"

#include <array>
#include <cassert>

#include <fmt/format.h>

namespace fips::identity {

namespace {

constexpr std::string_view CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
constexpr size_t CHECKSUM_LENGTH = 6;
constexpr size_t MAX_HRP_LENGTH = 83;
constexpr uint32_t BECH32_CONST = 1;
constexpr uint32_t BECH32M_CONST = 0x2bc830a3;

// Maps a lowercase or uppercase character to its 5-bit value, or -1.
constexpr std::array<int8_t, 128> makeCharsetRev() {
  std::array<int8_t, 128> rev{};
  rev.fill(-1);
  for (size_t i = 0; i < CHARSET.size(); ++i) {
    auto c = static_cast<unsigned char>(CHARSET[i]);
    rev[c] = static_cast<int8_t>(i);
    if (c >= 'a' && c <= 'z') rev[static_cast<size_t>(c - 'a' + 'A')] = static_cast<int8_t>(i);
  }
  return rev;
}
constexpr std::array<int8_t, 128> CHARSET_REV = makeCharsetRev();

int charValue(char c) {
  auto u = static_cast<unsigned char>(c);
  return u < CHARSET_REV.size() ? CHARSET_REV[u] : -1;
}

char toLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// The BCH checksum state of BIP-173, fed one 5-bit value at a time.
class Polymod {
 public:
  void feed(uint32_t value) {
    uint32_t top = state_ >> 25;
    state_ = ((state_ & 0x1ffffff) << 5) ^ value;
    for (size_t i = 0; i < GENERATORS.size(); ++i) {
      if ((top >> i) & 1) state_ ^= GENERATORS[i];
    }
  }
  // Feeds the expanded HRP: high bits of each character, 0, low bits.
  void feedHrp(std::string_view hrp) {
    for (char c : hrp) feed(static_cast<unsigned char>(toLower(c)) >> 5);
    feed(0);
    for (char c : hrp) feed(static_cast<unsigned char>(toLower(c)) & 31);
  }
  uint32_t value() const { return state_; }

 private:
  static constexpr std::array<uint32_t, 5> GENERATORS = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa,
                                                         0x3d4233dd, 0x2a1462b3};
  uint32_t state_ = 1;
};

// Checks the characters of the whole string: data-part alphabet, HRP range,
// single case. Returns the separator position on success.
IdentityResult<size_t> checkCharacters(std::string_view text) {
  size_t sep = text.rfind('1');
  size_t dataStart = sep == std::string_view::npos ? 0 : sep + 1;
  bool upper = false;
  bool lower = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    auto u = static_cast<unsigned char>(c);
    bool bad = i >= dataStart ? charValue(c) < 0 : (u < 33 || u > 126);
    if (bad) {
      return IdentityError{IdentityErrorKind::INVALID_CHARACTER,
                           fmt::format("invalid bech32 character (code {}) at position {}", u, i)};
    }
    upper = upper || (c >= 'A' && c <= 'Z');
    lower = lower || (c >= 'a' && c <= 'z');
  }
  if (upper && lower) {
    return IdentityError{IdentityErrorKind::MIXED_CASE, "mixed-case bech32 string"};
  }
  if (sep == std::string_view::npos) {
    return IdentityError{IdentityErrorKind::MALFORMED, "missing bech32 separator '1'"};
  }
  if (sep == 0) {
    return IdentityError{IdentityErrorKind::MALFORMED, "empty bech32 human-readable part"};
  }
  if (sep > MAX_HRP_LENGTH) {
    return IdentityError{IdentityErrorKind::MALFORMED,
                         fmt::format("bech32 human-readable part too long ({} > {} characters)",
                                     sep, MAX_HRP_LENGTH)};
  }
  return sep;
}

}  // namespace

std::string bech32Encode(std::string_view hrp, std::span<const uint8_t> data,
                         Bech32Variant variant) {
  assert(!hrp.empty() && hrp.size() <= MAX_HRP_LENGTH);
  std::string out;
  out.reserve(hrp.size() + 1 + (data.size() * 8 + 4) / 5 + CHECKSUM_LENGTH);
  out.append(hrp);
  out.push_back('1');
  Polymod check;
  check.feedHrp(hrp);
  auto emit = [&out, &check](uint32_t value) {
    check.feed(value);
    out.push_back(CHARSET[value]);
  };
  uint32_t acc = 0;
  unsigned bits = 0;
  for (uint8_t b : data) {
    acc = ((acc << 8) | b) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      emit((acc >> bits) & 31);
    }
  }
  if (bits > 0) emit((acc << (5 - bits)) & 31);
  for (size_t i = 0; i < CHECKSUM_LENGTH; ++i) check.feed(0);
  uint32_t mod = check.value() ^ (variant == Bech32Variant::BECH32M ? BECH32M_CONST : BECH32_CONST);
  for (size_t i = 0; i < CHECKSUM_LENGTH; ++i) {
    out.push_back(CHARSET[(mod >> (5 * (CHECKSUM_LENGTH - 1 - i))) & 31]);
  }
  return out;
}

IdentityResult<Bech32Decoded> bech32Decode(std::string_view text) {
  auto sepOr = checkCharacters(text);
  if (!sepOr.ok()) return sepOr.error();
  size_t sep = sepOr.value();
  std::string_view hrp = text.substr(0, sep);
  std::string_view dataPart = text.substr(sep + 1);
  if (dataPart.size() < CHECKSUM_LENGTH) {
    return IdentityError{IdentityErrorKind::WRONG_LENGTH,
                         fmt::format("bech32 data part too short for a checksum ({} < {})",
                                     dataPart.size(), CHECKSUM_LENGTH)};
  }
  Polymod check;
  check.feedHrp(hrp);
  for (char c : dataPart) check.feed(static_cast<uint32_t>(charValue(c)));
  Bech32Variant variant;
  if (check.value() == BECH32_CONST) {
    variant = Bech32Variant::BECH32;
  } else if (check.value() == BECH32M_CONST) {
    variant = Bech32Variant::BECH32M;
  } else {
    return IdentityError{IdentityErrorKind::BAD_CHECKSUM, "bad bech32 checksum"};
  }

  Bech32Decoded out{std::string(), std::vector<uint8_t>(), variant};
  out.hrp.reserve(hrp.size());
  for (char c : hrp) out.hrp.push_back(toLower(c));
  std::string_view payload = dataPart.substr(0, dataPart.size() - CHECKSUM_LENGTH);
  out.data.reserve(payload.size() * 5 / 8);
  uint32_t acc = 0;
  unsigned bits = 0;
  for (char c : payload) {
    acc = ((acc << 5) | static_cast<uint32_t>(charValue(c))) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.data.push_back(static_cast<uint8_t>(acc >> bits));
    }
  }
  return out;
}

}  // namespace fips::identity
