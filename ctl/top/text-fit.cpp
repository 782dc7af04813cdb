// SPDX-License-Identifier: MIT
// fipstop's text fitting (see text-fit.h).
#include "ctl/top/text-fit.h"

#include <algorithm>

#include "ctl/top/sparkline.h"

namespace fips::ctl::top {

namespace {

constexpr const char* ELLIPSIS = "\u2026";
constexpr const char* HOP = " \u2192 ";

// The last `width` columns of `text`.
std::string lastColumns(const std::string& text, size_t width) {
  const size_t total = displayWidth(text);
  if (total <= width) return text;
  const std::string head = clipToWidth(text, total - width);
  return text.substr(head.size());
}

std::vector<std::string> split(const std::string& text, const std::string& separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at; (at = text.find(separator, start)) != std::string::npos;
       start = at + separator.size())
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

}  // namespace

std::string elideEnd(const std::string& text, size_t width) {
  if (displayWidth(text) <= width) return text;
  if (width == 0) return "";
  return clipToWidth(text, width - 1) + ELLIPSIS;
}

std::string elideMiddle(const std::string& text, size_t width) {
  if (displayWidth(text) <= width) return text;
  if (width < 3) return elideEnd(text, width);
  const size_t room = width - 1;
  return clipToWidth(text, room - room / 2) + ELLIPSIS + lastColumns(text, room / 2);
}

std::string elideCoords(const std::string& text, size_t width) {
  if (displayWidth(text) <= width) return text;
  const std::vector<std::string> hops = split(text, HOP);
  const std::string gap = std::string(HOP) + ELLIPSIS + HOP;
  // Leave out hops 1 .. first-1, the fewest that make it fit; else the
  // first hop too, keeping the root's end.
  for (size_t first = 2; first < hops.size(); ++first) {
    std::string out = hops[0] + gap + hops[first];
    for (size_t i = first + 1; i < hops.size(); ++i) out += HOP + hops[i];
    if (displayWidth(out) <= width) return out;
  }
  if (hops.size() >= 2) {
    const std::string out = std::string(ELLIPSIS) + HOP + hops.back();
    if (displayWidth(out) <= width) return out;
  }
  return elideMiddle(text, width);
}

std::string shortenAtWord(const std::string& text, size_t width) {
  if (displayWidth(text) <= width) return text;
  if (width == 0) return "";
  std::string cut = clipToWidth(text, width - 1);
  // A space in the cut's second half, or the one just after it; a path
  // may break after a '/'.
  size_t space = text[cut.size()] == ' ' ? cut.size() : cut.find_last_of(" /");
  if (space != std::string::npos && cut[space] == '/') ++space;
  if (space != std::string::npos && displayWidth(cut.substr(0, space)) >= (width - 1) / 2) {
    cut.resize(space);
    while (!cut.empty() && std::string(" ,;:|(-").find(cut.back()) != std::string::npos)
      cut.pop_back();
  }
  return cut + ELLIPSIS;
}

std::vector<std::string> wrapWords(const std::string& text, size_t width, size_t indent) {
  // The first line keeps the text's leading spaces.
  const size_t lead = std::min(text.find_first_not_of(' '), text.size());
  std::vector<std::string> lines{text.substr(0, lead)};
  const std::string pad(indent < width ? indent : 0, ' ');
  bool hasWord = false;  // the last line holds a word
  for (std::string word : split(text.substr(lead), " ")) {
    if (word.empty()) continue;
    if (hasWord && displayWidth(lines.back()) + 1 + displayWidth(word) <= width) {
      lines.back() += " " + word;
      continue;
    }
    if (hasWord) lines.push_back(pad);
    hasWord = true;
    // A word longer than the line: cut it across lines.
    while (displayWidth(lines.back()) + displayWidth(word) > width &&
           displayWidth(lines.back()) < width) {
      const std::string head = clipToWidth(word, width - displayWidth(lines.back()));
      lines.back() += head;
      word = word.substr(head.size());
      lines.push_back(pad);
    }
    lines.back() += word;
  }
  return lines;
}

}  // namespace fips::ctl::top
