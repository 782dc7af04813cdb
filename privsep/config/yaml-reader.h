// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: walks yaml-cpp nodes of one file into
// typed fields, recording each key's line and turning every bad value into a
// "FILE:LINE: key.path: reason" message. Runs in the fips supervisor and
// fipsctl on operator-owned input; it never throws for bad input.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace fips::privsep::config {

// Where a key was written.
struct Origin {
  std::string file;
  int line = 0;  // 1-based
};

// Key path ("transports.udp.bind_addr", "peers[0].npub") -> where it was written.
using Origins = std::map<std::string, Origin>;

// The outcome of parsing one file: messages and key origins.
class ParseContext {
 public:
  explicit ParseContext(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  // Records "FILE:LINE: path: reason" and remembers `path` as bad.
  void error(int line, std::string_view path, std::string_view reason);
  // Records "FILE:LINE: message".
  void warn(int line, std::string_view message);
  void record(const std::string& path, int line) { origins_[path] = Origin{file_, line}; }
  // Counts one entry of a list of maps (peers, addresses, port forwards);
  // false once a file holds more than MAX_LIST_ITEMS, which only YAML aliases
  // repeating big lists can reach.
  bool admitListItem() { return ++listItems_ <= MAX_LIST_ITEMS; }

  static constexpr std::size_t MAX_LIST_ITEMS = 100000;

  std::vector<std::string>& errors() { return errors_; }
  std::vector<std::string>& warnings() { return warnings_; }
  Origins& origins() { return origins_; }
  // The key paths error() was called for, so later checks of the same value
  // (validateConfig) do not report it twice.
  const std::set<std::string>& errorPaths() const { return errorPaths_; }

 private:
  std::string file_;
  std::size_t listItems_ = 0;
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
  Origins origins_;
  std::set<std::string> errorPaths_;
};

// 1-based line of `node`, or `fallback` when yaml-cpp has no position for it.
int nodeLine(const YAML::Node& node, int fallback);

// Renders a scalar for a message: quoted, escaped, cut to a sane length.
std::string quoteValue(std::string_view value);

// How a value looks, for "expected X, got Y" messages.
std::string describe(const YAML::Node& node);

// A name <-> enumerator pair for readEnum.
template <typename E>
struct EnumName {
  std::string_view name;
  E value;
};

// Reads the keys of one YAML map. Each read marks its key as known; finish()
// reports the keys nobody read as errors, with the nearest key the parser
// asked for as a suggestion: the parser's reads are the one list of the keys
// each level accepts. A null node reads as an empty map; any
// other non-map is reported by the constructor and reads as empty too.
class MapReader {
 public:
  MapReader(ParseContext& ctx, const YAML::Node& node, std::string path, int line);

  // Whether `key` is present (with any value, null included).
  bool has(std::string_view key) const;
  // The value of `key`, marked as known; nullopt when absent. Either way
  // `key` is remembered as a key of this map (for finish()'s suggestions).
  std::optional<YAML::Node> take(std::string_view key);
  // "path.key".
  std::string pathOf(std::string_view key) const;
  // Line of `key`, or of the map itself when absent.
  int lineOf(std::string_view key) const;
  int line() const { return line_; }
  const std::string& path() const { return path_; }
  ParseContext& context() { return ctx_; }

  // Scalar readers: absent keys leave `out` unchanged; a bad value reports an
  // error and leaves `out` unchanged. For optionals, null means unset.
  void read(std::string_view key, bool& out);
  void read(std::string_view key, std::string& out);
  void read(std::string_view key, std::optional<std::string>& out);
  void read(std::string_view key, std::uint8_t& out);
  void read(std::string_view key, std::uint16_t& out);
  void read(std::string_view key, std::optional<std::uint16_t>& out);
  void read(std::string_view key, std::uint32_t& out);
  void read(std::string_view key, std::optional<std::uint32_t>& out);
  void read(std::string_view key, std::uint64_t& out);
  void read(std::string_view key, std::optional<std::uint64_t>& out);
  void read(std::string_view key, double& out);
  void read(std::string_view key, std::optional<double>& out);
  void read(std::string_view key, std::vector<std::string>& out);
  void read(std::string_view key, std::vector<std::uint64_t>& out);

  template <typename E>
  void readEnum(std::string_view key, E& out, std::span<const EnumName<E>> names);

  // Runs `parse` on the map under `key` (if present), then finishes it.
  template <typename F>
  void section(std::string_view key, F&& parse);

  // Lets null stand for "default" in scalar reads of this map, as serde does
  // for the reference's Option fields (tun, dns, transports, gateway).
  void acceptNullAsDefault() { nullIsDefault_ = true; }

  // The keys of this map, in file order.
  std::vector<std::string> keys() const;

  // Reports "FILE:LINE: path.key: unknown key; did you mean 'other'?" (the
  // suggestion only when a key the parser asked for is close) for each
  // unread key.
  void finish();

 private:
  struct Entry {
    std::string key;
    YAML::Node value;
    int line;
    bool known;
  };

  Entry* find(std::string_view key);
  const Entry* find(std::string_view key) const;
  // The scalar text of `entry` for a typed read; reports and returns nullopt
  // when it is not a scalar, or is quoted and `allowQuoted` is false. Null is
  // accepted only when `isNull` is given (it is then set).
  std::optional<std::string> scalar(Entry& entry, std::string_view expected, bool allowQuoted,
                                    bool* isNull);
  // Typed reads of `key`: nullopt when absent, null or bad (bad is reported).
  std::optional<std::uint64_t> readUnsigned(std::string_view key, std::uint64_t max,
                                            std::string_view expected, bool* isNull);
  std::optional<double> readDouble(std::string_view key, bool* isNull);
  std::optional<std::string> readString(std::string_view key, bool* isNull);
  void badEnum(const Entry& entry, std::string_view value, std::string_view choices);

  ParseContext& ctx_;
  std::string path_;
  int line_;
  bool nullIsDefault_ = false;
  std::vector<Entry> entries_;
  // Every key take() was asked for, present or not, in order.
  std::vector<std::string> asked_;
};

// Parsers for YAML 1.2 core-schema scalars, as serde_yaml reads them.
enum class UintStatus { OK, NOT_A_NUMBER, OUT_OF_RANGE };
struct UintParse {
  UintStatus status;
  std::uint64_t value;
};
// Decimal, 0x hex, 0o octal, 0b binary, optional '+'; a '-' number is out of range.
UintParse parseUnsigned(std::string_view text, std::uint64_t max);
// Decimal/exponent floats, integers, .inf, -.inf, .nan.
std::optional<double> parseDouble(std::string_view text);
// true/True/TRUE/false/False/FALSE.
std::optional<bool> parseBool(std::string_view text);

template <typename E>
void MapReader::readEnum(std::string_view key, E& out, std::span<const EnumName<E>> names) {
  std::optional<std::string> text = readString(key, nullptr);
  if (!text) return;
  for (const EnumName<E>& n : names) {
    if (n.name == *text) {
      out = n.value;
      return;
    }
  }
  std::string choices;
  for (const EnumName<E>& n : names) {
    if (!choices.empty()) choices += ", ";
    choices += n.name;
  }
  badEnum(*find(key), *text, choices);
}

template <typename F>
void MapReader::section(std::string_view key, F&& parse) {
  std::optional<YAML::Node> node = take(key);
  if (!node) return;
  MapReader child(ctx_, *node, pathOf(key), lineOf(key));
  parse(child);
  child.finish();
}

}  // namespace fips::privsep::config
