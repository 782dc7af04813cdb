// SPDX-License-Identifier: MIT
// Lowercase hex encoding and strict hex decoding of byte strings. Used in any
// process; decoding inputs may be untrusted and never throw.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace fips::identity {

// True for 0-9, a-f, A-F.
bool isHexDigit(char c);

// Lowercase hex, two characters per byte.
std::string toHex(std::span<const uint8_t> bytes);

// Decodes hex (either case) into exactly out.size() bytes. Returns false,
// leaving out unspecified, when text is not 2 * out.size() hex characters.
bool decodeHexInto(std::string_view text, std::span<uint8_t> out);

}  // namespace fips::identity
