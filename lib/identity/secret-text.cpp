// SPDX-License-Identifier: MIT
// Keeping secret keys out of error lines (see secret-text.h).
#include "lib/identity/secret-text.h"

#include <cctype>
#include <string>

namespace fips::identity {

namespace {

constexpr size_t SECRET_HEX_CHARS = 64;  // 32 secret bytes in hex
// A hex run this long is a secret key with a few characters lost or added
// by a mistyped copy: still most of the key.
constexpr size_t NEAR_SECRET_HEX_CHARS = 60;

bool isHex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

constexpr std::string_view NSEC_PREFIX = "nsec1";

// Whether "nsec1" (any case) starts at text[at].
bool nsecAt(std::string_view text, size_t at) {
  if (at > text.size() || text.size() - at < NSEC_PREFIX.size()) return false;
  for (size_t i = 0; i < NSEC_PREFIX.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[at + i])) != NSEC_PREFIX[i]) return false;
  }
  return true;
}

bool containsNsec(std::string_view text) {
  for (size_t at = 0; at < text.size(); ++at) {
    if (nsecAt(text, at)) return true;
  }
  return false;
}

// The length of the longest run of hex characters in `text`.
size_t longestHexRun(std::string_view text) {
  size_t longest = 0;
  size_t run = 0;
  for (char c : text) {
    run = isHex(c) ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

bool isWordBreak(char c) {
  return c == ' ' || c == '\'' || c == '"' || c == ',' || c == ':' || c == '(' || c == ')' ||
         c == '\n' || c == '\t';
}

}  // namespace

std::optional<std::string> secretKeyNotPeer(std::string_view peer) {
  if (!peer.empty() && nsecAt(peer, 0)) {
    return "that is a secret key (nsec), not a peer: give the peer's npub";
  }
  if (peer.size() >= NEAR_SECRET_HEX_CHARS && longestHexRun(peer) == peer.size()) {
    return peer.size() == SECRET_HEX_CHARS
               ? "that is 64 hex characters, a secret key's form, not a peer: give the peer's npub"
               : "that is " + std::to_string(peer.size()) +
                     " hex characters, near a secret key's 64, not a peer: give the peer's npub";
  }
  return std::nullopt;
}

std::string withoutSecretKeys(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  while (start < text.size()) {
    if (isWordBreak(text[start])) {
      out += text[start++];
      continue;
    }
    size_t end = start;
    while (end < text.size() && !isWordBreak(text[end])) ++end;
    const std::string_view word = text.substr(start, end - start);
    // A path may hold a long hex name (a container id): kept.
    const bool path = word.find('/') != std::string_view::npos;
    if (containsNsec(word) || (!path && longestHexRun(word) >= NEAR_SECRET_HEX_CHARS)) {
      out += "<secret key withheld>";
    } else {
      out += word;
    }
    start = end;
  }
  return out;
}

}  // namespace fips::identity
