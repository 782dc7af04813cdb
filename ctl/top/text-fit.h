// SPDX-License-Identifier: MIT
// fipstop's text fitting: cutting a cell, title or status line to a
// number of terminal columns with an ellipsis (at the end, in the middle,
// between coordinate hops, at a word boundary) and wrapping text at word
// boundaries. Pure functions of UTF-8 text of narrow glyphs (one column
// per code point, as displayWidth counts). Runs in fipstop.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fips::ctl::top {

// `text` when it fits `width` columns, else its first width - 1 columns
// and "…" ("" at width 0).
std::string elideEnd(const std::string& text, size_t width);

// `text` when it fits `width` columns, else its head and tail around "…"
// (the head one column longer on odd room): "fd1b:4788:…:e34c".
std::string elideMiddle(const std::string& text, size_t width);

// Coordinates "a → b → c → root" when they fit `width` columns, else the
// first hop, " → … → " and as many of the last hops as fit; else
// "… → " and the last hop (the root); else elideMiddle.
std::string elideCoords(const std::string& text, size_t width);

// `text` when it fits `width` columns, else cut at the last space (or
// after the last '/') that leaves at least half of it, separators before
// the cut (",;:|(-") and spaces dropped, and "…" appended; cut anywhere
// when there is no such boundary.
std::string shortenAtWord(const std::string& text, size_t width);

// `text` in lines of at most `width` columns, broken at spaces; the lines
// after the first start with `indent` spaces (counted in the width). A
// word longer than a line is cut across lines. At least one line.
std::vector<std::string> wrapWords(const std::string& text, size_t width, size_t indent);

}  // namespace fips::ctl::top
