// SPDX-License-Identifier: MIT
// Lowercase hex encoding and strict hex decoding of byte strings. Used in any
// process; decoding inputs may be untrusted and never throw.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fips::router::identity {

// Lowercase hex, two characters per byte.
std::string toHex(std::span<const uint8_t> bytes);

// Decodes hex (either case) into exactly out.size() bytes. Returns false,
// leaving out unspecified, when text is not 2 * out.size() hex characters.
bool decodeHexInto(std::string_view text, std::span<uint8_t> out);

// Decodes hex (either case) of any even length; nullopt on a bad character
// or odd length.
std::optional<std::vector<uint8_t>> fromHex(std::string_view text);

}  // namespace fips::router::identity
