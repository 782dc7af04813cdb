// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: nearest-name suggestions (see
// did-you-mean.h). Pure functions over operator-owned text.
#include "privsep/config/did-you-mean.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

namespace fips::privsep::config {

namespace {

constexpr std::size_t MAX_COMPARED_CHARS = 64;
constexpr std::size_t SHORT_WORD_CHARS = 4;
constexpr std::size_t LONG_WORD_DIVISOR = 3;
constexpr std::size_t MIN_LONG_WORD_DISTANCE = 2;

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

}  // namespace

std::size_t editDistance(std::string_view a, std::string_view b) {
  if (a.size() > MAX_COMPARED_CHARS || b.size() > MAX_COMPARED_CHARS) return a.size() + b.size();
  constexpr std::size_t WIDTH = MAX_COMPARED_CHARS + 1;
  // d[i][j]: distance between the first i characters of a and the first j of b.
  std::array<std::array<std::size_t, WIDTH>, WIDTH> d{};
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> closestName(std::string_view word,
                                       const std::vector<std::string>& known) {
  const std::size_t limit = word.size() <= SHORT_WORD_CHARS
                                ? 1
                                : std::max(MIN_LONG_WORD_DISTANCE, word.size() / LONG_WORD_DIVISOR);
  std::optional<std::string> best;
  std::size_t bestDistance = limit + 1;
  for (const std::string& name : known) {
    const std::size_t distance = editDistance(word, name);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  return best;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& known) {
  std::optional<std::string> name = closestName(word, known);
  return name ? fmt::format("; did you mean '{}'?", *name) : std::string();
}

}  // namespace fips::privsep::config
