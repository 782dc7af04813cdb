// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: typed reads of yaml-cpp maps with
// per-key line numbers and one message per bad value. Runs in the fips
// supervisor and fipsctl on operator-owned input; never throws for bad input.
#include "privsep/config/yaml-reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "privsep/config/did-you-mean.h"

namespace fips::privsep::config {

namespace {

constexpr std::size_t MAX_QUOTED_CHARS = 64;
constexpr std::uint64_t U8_MAX = std::numeric_limits<std::uint8_t>::max();
constexpr std::uint64_t U16_MAX = std::numeric_limits<std::uint16_t>::max();
constexpr std::uint64_t U32_MAX = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t U64_MAX = std::numeric_limits<std::uint64_t>::max();

static_assert(std::is_same_v<std::size_t, std::uint64_t>,
              "usize keys are read as u64; a 32-bit target needs its own range check");

// Quoted scalars ("!") and explicit !!str are strings, never numbers or bools.
bool isStringTagged(const YAML::Node& node) {
  return node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str";
}

std::string rangeText(std::uint64_t max) {
  return fmt::format("0..{}", max);
}

}  // namespace

void ParseContext::error(int line, std::string_view path, std::string_view reason) {
  errors_.push_back(fmt::format("{}:{}: {}: {}", file_, line, path, reason));
  errorPaths_.emplace(path);
}

void ParseContext::warn(int line, std::string_view message) {
  warnings_.push_back(fmt::format("{}:{}: {}", file_, line, message));
}

int nodeLine(const YAML::Node& node, int fallback) {
  const YAML::Mark mark = node.Mark();
  return mark.is_null() || mark.line < 0 ? fallback : mark.line + 1;
}

std::string quoteValue(std::string_view value) {
  std::string out = "\"";
  std::size_t shown = 0;
  for (char c : value) {
    if (shown++ == MAX_QUOTED_CHARS) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return quoteValue(node.Scalar());
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      break;
  }
  return "null";
}

UintParse parseUnsigned(std::string_view text, std::uint64_t max) {
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'o' || text[1] == 'b')) {
    base = text[1] == 'x' ? 16 : text[1] == 'o' ? 8 : 2;
    text.remove_prefix(2);
  }
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || ptr != end || ec == std::errc::invalid_argument) {
    return {UintStatus::NOT_A_NUMBER, 0};
  }
  if (ec == std::errc::result_out_of_range || value > max || (negative && value != 0)) {
    return {UintStatus::OUT_OF_RANGE, 0};
  }
  return {UintStatus::OK, value};
}

std::optional<double> parseDouble(std::string_view text) {
  if (text == ".inf" || text == ".Inf" || text == ".INF" || text == "+.inf" || text == "+.Inf" ||
      text == "+.INF") {
    return std::numeric_limits<double>::infinity();
  }
  if (text == "-.inf" || text == "-.Inf" || text == "-.INF") {
    return -std::numeric_limits<double>::infinity();
  }
  if (text == ".nan" || text == ".NaN" || text == ".NAN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  bool digit = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-') {
      return std::nullopt;
    }
  }
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (!digit || ptr != end || ec != std::errc()) return std::nullopt;
  return value;
}

std::optional<bool> parseBool(std::string_view text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

MapReader::MapReader(ParseContext& ctx, const YAML::Node& node, std::string path, int line)
    : ctx_(ctx), path_(std::move(path)), line_(line) {
  if (node.IsNull()) return;
  if (!node.IsMap()) {
    ctx_.error(line_, path_, "expected a map, got " + describe(node));
    return;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const int keyLine = nodeLine(it->first, line_);
    if (!it->first.IsScalar()) {
      ctx_.error(keyLine, path_.empty() ? "top level" : path_,
                 "a key must be a string, got " + describe(it->first));
      continue;
    }
    std::string key = it->first.Scalar();
    if (find(key) != nullptr) {
      ctx_.error(keyLine, pathOf(key), "duplicate key");
      continue;
    }
    entries_.push_back(Entry{std::move(key), it->second, keyLine, false});
  }
}

MapReader::Entry* MapReader::find(std::string_view key) {
  for (Entry& e : entries_) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

const MapReader::Entry* MapReader::find(std::string_view key) const {
  for (const Entry& e : entries_) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

bool MapReader::has(std::string_view key) const {
  return find(key) != nullptr;
}

std::vector<std::string> MapReader::keys() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.push_back(e.key);
  return out;
}

std::string MapReader::pathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
}

int MapReader::lineOf(std::string_view key) const {
  const Entry* e = find(key);
  return e != nullptr ? e->line : line_;
}

std::optional<YAML::Node> MapReader::take(std::string_view key) {
  if (std::find(asked_.begin(), asked_.end(), key) == asked_.end()) asked_.emplace_back(key);
  Entry* e = find(key);
  if (e == nullptr) return std::nullopt;
  e->known = true;
  ctx_.record(pathOf(key), e->line);
  return e->value;
}

std::optional<std::string> MapReader::scalar(Entry& entry, std::string_view expected,
                                             bool allowQuoted, bool* isNull) {
  const YAML::Node& v = entry.value;
  if (v.IsNull() && (isNull != nullptr || nullIsDefault_)) {
    if (isNull != nullptr) *isNull = true;
    return std::nullopt;
  }
  if (!v.IsScalar() || (!allowQuoted && isStringTagged(v))) {
    const std::string got = v.IsScalar() ? "the quoted string " + describe(v) : describe(v);
    ctx_.error(entry.line, pathOf(entry.key), fmt::format("expected {}, got {}", expected, got));
    return std::nullopt;
  }
  return v.Scalar();
}

std::optional<std::uint64_t> MapReader::readUnsigned(std::string_view key, std::uint64_t max,
                                                     std::string_view expected, bool* isNull) {
  if (!take(key)) return std::nullopt;
  Entry& e = *find(key);
  std::optional<std::string> text = scalar(e, expected, false, isNull);
  if (!text) return std::nullopt;
  const UintParse parsed = parseUnsigned(*text, max);
  if (parsed.status == UintStatus::NOT_A_NUMBER) {
    ctx_.error(e.line, pathOf(key),
               fmt::format("expected {}, got {}", expected, quoteValue(*text)));
    return std::nullopt;
  }
  if (parsed.status == UintStatus::OUT_OF_RANGE) {
    ctx_.error(e.line, pathOf(key),
               fmt::format("{} is out of range ({})", quoteValue(*text), rangeText(max)));
    return std::nullopt;
  }
  return parsed.value;
}

std::optional<double> MapReader::readDouble(std::string_view key, bool* isNull) {
  if (!take(key)) return std::nullopt;
  Entry& e = *find(key);
  std::optional<std::string> text = scalar(e, "a number", false, isNull);
  if (!text) return std::nullopt;
  std::optional<double> value = parseDouble(*text);
  if (!value) {
    ctx_.error(e.line, pathOf(key), "expected a number, got " + quoteValue(*text));
  }
  return value;
}

std::optional<std::string> MapReader::readString(std::string_view key, bool* isNull) {
  if (!take(key)) return std::nullopt;
  return scalar(*find(key), "a string", true, isNull);
}

void MapReader::badEnum(const Entry& entry, std::string_view value, std::string_view choices) {
  ctx_.error(entry.line, pathOf(entry.key),
             fmt::format("{} is not one of {}", quoteValue(value), choices));
}

void MapReader::read(std::string_view key, bool& out) {
  if (!take(key)) return;
  Entry& e = *find(key);
  std::optional<std::string> text = scalar(e, "true or false", false, nullptr);
  if (!text) return;
  if (std::optional<bool> b = parseBool(*text)) {
    out = *b;
  } else {
    ctx_.error(e.line, pathOf(key), "expected true or false, got " + quoteValue(*text));
  }
}

void MapReader::read(std::string_view key, std::string& out) {
  if (std::optional<std::string> s = readString(key, nullptr)) out = std::move(*s);
}

void MapReader::read(std::string_view key, std::optional<std::string>& out) {
  bool isNull = false;
  std::optional<std::string> s = readString(key, &isNull);
  if (s || isNull) out = std::move(s);
}

void MapReader::read(std::string_view key, std::uint8_t& out) {
  if (auto v = readUnsigned(key, U8_MAX, "an unsigned 8-bit integer", nullptr)) {
    out = static_cast<std::uint8_t>(*v);
  }
}

void MapReader::read(std::string_view key, std::uint16_t& out) {
  if (auto v = readUnsigned(key, U16_MAX, "an unsigned 16-bit integer", nullptr)) {
    out = static_cast<std::uint16_t>(*v);
  }
}

void MapReader::read(std::string_view key, std::optional<std::uint16_t>& out) {
  bool isNull = false;
  auto v = readUnsigned(key, U16_MAX, "an unsigned 16-bit integer", &isNull);
  if (v) out = static_cast<std::uint16_t>(*v);
  if (isNull) out.reset();
}

void MapReader::read(std::string_view key, std::uint32_t& out) {
  if (auto v = readUnsigned(key, U32_MAX, "an unsigned 32-bit integer", nullptr)) {
    out = static_cast<std::uint32_t>(*v);
  }
}

void MapReader::read(std::string_view key, std::optional<std::uint32_t>& out) {
  bool isNull = false;
  auto v = readUnsigned(key, U32_MAX, "an unsigned 32-bit integer", &isNull);
  if (v) out = static_cast<std::uint32_t>(*v);
  if (isNull) out.reset();
}

void MapReader::read(std::string_view key, std::uint64_t& out) {
  if (auto v = readUnsigned(key, U64_MAX, "an unsigned integer", nullptr)) out = *v;
}

void MapReader::read(std::string_view key, std::optional<std::uint64_t>& out) {
  bool isNull = false;
  auto v = readUnsigned(key, U64_MAX, "an unsigned integer", &isNull);
  if (v) out = *v;
  if (isNull) out.reset();
}

void MapReader::read(std::string_view key, double& out) {
  if (std::optional<double> v = readDouble(key, nullptr)) out = *v;
}

void MapReader::read(std::string_view key, std::optional<double>& out) {
  bool isNull = false;
  std::optional<double> v = readDouble(key, &isNull);
  if (v) out = v;
  if (isNull) out.reset();
}

void MapReader::read(std::string_view key, std::vector<std::string>& out) {
  std::optional<YAML::Node> node = take(key);
  if (!node) return;
  const int line = lineOf(key);
  if (!node->IsSequence()) {
    ctx_.error(line, pathOf(key), "expected a list of strings, got " + describe(*node));
    return;
  }
  std::vector<std::string> values;
  bool ok = true;
  std::size_t i = 0;
  for (auto it = node->begin(); it != node->end(); ++it, ++i) {
    const YAML::Node item = *it;
    if (!item.IsScalar()) {
      ctx_.error(nodeLine(item, line), fmt::format("{}[{}]", pathOf(key), i),
                 "expected a string, got " + describe(item));
      ok = false;
      continue;
    }
    values.push_back(item.Scalar());
  }
  if (ok) out = std::move(values);
}

void MapReader::read(std::string_view key, std::vector<std::uint64_t>& out) {
  std::optional<YAML::Node> node = take(key);
  if (!node) return;
  const int line = lineOf(key);
  if (!node->IsSequence()) {
    ctx_.error(line, pathOf(key), "expected a list of unsigned integers, got " + describe(*node));
    return;
  }
  std::vector<std::uint64_t> values;
  bool ok = true;
  std::size_t i = 0;
  for (auto it = node->begin(); it != node->end(); ++it, ++i) {
    const YAML::Node item = *it;
    const std::string itemPath = fmt::format("{}[{}]", pathOf(key), i);
    const int itemLine = nodeLine(item, line);
    const UintParse parsed = item.IsScalar() && !isStringTagged(item)
                                 ? parseUnsigned(item.Scalar(), U64_MAX)
                                 : UintParse{UintStatus::NOT_A_NUMBER, 0};
    if (parsed.status == UintStatus::OK) {
      values.push_back(parsed.value);
      continue;
    }
    ok = false;
    ctx_.error(itemLine, itemPath,
               parsed.status == UintStatus::OUT_OF_RANGE
                   ? fmt::format("{} is out of range ({})", describe(item), rangeText(U64_MAX))
                   : "expected an unsigned integer, got " + describe(item));
  }
  if (ok) out = std::move(values);
}

void MapReader::finish() {
  for (const Entry& e : entries_) {
    if (!e.known) ctx_.error(e.line, pathOf(e.key), "unknown key" + didYouMean(e.key, asked_));
  }
}

}  // namespace fips::privsep::config
