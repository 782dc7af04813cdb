// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: "did you mean 'persistent'?" for a
// misspelled key or name. Runs in the fips supervisor and fipsctl on
// operator-owned text; pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fips::privsep::config {

// Edit distance between `a` and `b`: insertions, deletions, substitutions
// and swaps of two neighbouring characters each count 1 (optimal string
// alignment). Case is ignored. Inputs longer than 64 bytes count as
// "far" (their length sum), so cost stays bounded on untrusted text.
std::size_t editDistance(std::string_view a, std::string_view b);

// The name of `known` closest to `word` when it is close enough to be a
// typo (distance at most 1 for words of up to 4 characters, else a third of
// the word's length, at least 2); the first of equally close names; nullopt
// when none is close.
std::optional<std::string> closestName(std::string_view word,
                                       const std::vector<std::string>& known);

// "; did you mean 'NAME'?" when closestName finds one, else "".
std::string didYouMean(std::string_view word, const std::vector<std::string>& known);

}  // namespace fips::privsep::config
