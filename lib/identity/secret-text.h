// SPDX-License-Identifier: MIT
// Keeping secret keys out of error lines: operators paste an nsec (or its 64
// hex characters) where a peer's npub belongs, and an error that repeats
// the value would put the key in terminals, logs and bug reports (#7).
// Used by fipsctl and by the router's control commands; the text checked is
// untrusted operator input and nothing here throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fips::identity {

// The error line for `peer` when it is in a secret key's form: text
// starting with "nsec1" (any case, valid or not, since a mistyped nsec is
// still most of a key) or only hex characters, 60 or more of them (a
// secret key's 64, give or take a mistyped copy). The line never contains
// `peer`. nullopt for anything else.
std::optional<std::string> secretKeyNotPeer(std::string_view peer);

// `text` with every word (a run of characters other than space, quote,
// comma, colon and parentheses) that contains "nsec1" (any case) or,
// unless it is a path (holds a '/': a long hex directory name such as a
// container id is kept), 60 or more hex characters in a row replaced by
// "<secret key withheld>". A last guard for error lines that echo operator
// input.
std::string withoutSecretKeys(std::string_view text);

}  // namespace fips::identity
