// SPDX-License-Identifier: MIT
// toYaml: the effective Config as fips.yaml text, every key in the order of
// the field tables (config-fields.h), by one generic loop. Runs in the fips
// supervisor and fipsctl on validated configs; secrets are left out and
// replaced by a comment.
#include "privsep/config/config-yaml-writer.h"

#include <cmath>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "privsep/config/config-fields.h"
#include "privsep/config/enum-names.h"

namespace fips::privsep::config {

namespace {

constexpr int INDENT = 2;

std::string str(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += fmt::format("\\x{:02x}", u);
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string optStr(const std::optional<std::string>& s) {
  return s ? str(*s) : "~";
}

std::string boolean(bool b) {
  return b ? "true" : "false";
}

template <typename T>
std::string num(T v) {
  return fmt::format("{}", v);
}

template <typename T>
std::string num(const std::optional<T>& v) {
  return v ? num(*v) : "~";
}

std::string hex(std::uint16_t v) {
  return fmt::format("0x{:04x}", v);
}

std::string real(double v) {
  if (std::isnan(v)) return ".nan";
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  std::string out = fmt::format("{}", v);
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

std::string real(const std::optional<double>& v) {
  return v ? real(*v) : "~";
}

std::string numbers(const std::vector<std::uint64_t>& values) {
  return fmt::format("[{}]", fmt::join(values, ", "));
}

// Instance names print bare when they are plain words, quoted otherwise.
std::string key(std::string_view name) {
  const bool plain = !name.empty() &&
                     name.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-") == std::string_view::npos &&
                     name.front() != '-';
  return plain ? std::string(name) : str(name);
}

// Indented block YAML, one key per line; with docs, each key's doc string
// as a comment above it.
class Writer {
 public:
  explicit Writer(bool docs) : docs_(docs) {}
  // Prints `text` as a comment when writing docs; whether it did.
  bool doc(std::string_view text) {
    if (!docs_ || text.empty()) return false;
    comment(text);
    return true;
  }
  void line(std::string_view text) {
    out_.append(static_cast<std::size_t>(depth_ * INDENT), ' ');
    out_.append(text);
    out_ += '\n';
  }
  void comment(std::string_view text) { line(fmt::format("# {}", text)); }
  void kv(std::string_view name, std::string_view value) {
    line(fmt::format("{}: {}", name, value));
  }
  template <typename F>
  void map(std::string_view name, F body) {
    line(fmt::format("{}:", name));
    ++depth_;
    body();
    --depth_;
  }
  void strings(std::string_view name, const std::vector<std::string>& values) {
    if (values.empty()) return kv(name, "[]");
    line(fmt::format("{}:", name));
    for (const std::string& v : values)
      line(fmt::format("{}- {}", std::string(INDENT, ' '), str(v)));
  }
  // A list of maps: each body is written one level in, its first indent turned into "- ".
  template <typename T, typename F>
  void list(std::string_view name, const std::vector<T>& items, F body) {
    if (items.empty()) return kv(name, "[]");
    line(fmt::format("{}:", name));
    ++depth_;
    for (const T& item : items) {
      const std::size_t start = out_.size() + static_cast<std::size_t>(depth_ * INDENT);
      ++depth_;
      body(item);
      --depth_;
      out_.replace(start, INDENT, "- ");
    }
    --depth_;
  }
  std::string take() { return std::move(out_); }

 private:
  bool docs_;
  std::string out_;
  int depth_ = 0;
};

std::string text(bool v) {
  return boolean(v);
}
std::string text(const std::string& v) {
  return str(v);
}
std::string text(const std::optional<std::string>& v) {
  return optStr(v);
}
std::string text(double v) {
  return real(v);
}
std::string text(const std::optional<double>& v) {
  return real(v);
}
std::string text(const std::vector<std::uint64_t>& v) {
  return numbers(v);
}
template <typename T>
std::string text(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return std::string(enumName(v));
  } else {
    return num(v);
  }
}

template <typename F, typename T>
void writeField(Writer& w, const F& field, const T& value) {
  if (field.options.hide != nullptr) {
    if (std::optional<std::string_view> shown = field.options.hide(value)) {
      if (!shown->empty()) w.comment(*shown);
      return;
    }
  }
  if (!w.doc(field.doc) && !field.options.note.empty()) w.comment(field.options.note);
  if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    w.strings(field.key, value);
  } else if constexpr (std::is_same_v<T, std::uint16_t>) {
    w.kv(field.key, field.options.hex ? hex(value) : num(value));
  } else {
    w.kv(field.key, text(value));
  }
}

template <typename S, typename Table>
void writeFields(Writer& w, const S& s, const Table& table) {
  forEachEntry(table, [&](const auto& entry) {
    using E = std::decay_t<decltype(entry)>;
    if constexpr (IS_FIELD<E>) {
      writeField(w, entry, s.*entry.member);
    } else if constexpr (IS_SECTION<E>) {
      w.doc(entry.doc);
      w.map(entry.key, [&] { writeFields(w, s.*entry.member, *entry.fields); });
    } else if constexpr (IS_LIST<E>) {
      w.doc(entry.doc);
      w.list(entry.key, s.*entry.member,
             [&](const auto& item) { writeFields(w, item, *entry.fields); });
    }
  });
}

// The single form prints its keys directly, the named form one map per name.
template <typename Kind>
void writeInstances(Writer& w, const Kind& kind, const TransportsConfig& transports) {
  const auto& instances = transports.*kind.instances;
  if (instances.empty()) return;
  w.doc(kind.doc);
  w.map(kind.type, [&] {
    if (isSingle(instances)) return writeFields(w, instances.begin()->second, *kind.fields);
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
    for (const auto& entry : instances) {
      w.map(key(entry.first), [&] { writeFields(w, entry.second, *kind.fields); });
    }
  });
}

void writeTransports(Writer& w, const TransportsConfig& t) {
  if (t == TransportsConfig{}) return w.kv("transports", "{}");
  w.map("transports", [&] {
    forEachEntry(TRANSPORT_KINDS, [&](const auto& kind) { writeInstances(w, kind, t); });
  });
}

void writeGateway(Writer& w, const std::optional<GatewayConfig>& gateway) {
  if (!gateway) return w.comment("gateway: not configured");
  w.doc("the LAN gateway (fips-gateway)");
  w.map("gateway", [&] { writeFields(w, *gateway, GATEWAY_FIELDS); });
}

std::string write(const Config& config, bool docs) {
  Writer w(docs);
  w.comment("fips effective configuration: every key, defaults included");
  writeFields(w, config, CONFIG_FIELDS);
  writeTransports(w, config.transports);
  writeFields(w, config, CONFIG_PEERS);
  writeGateway(w, config.gateway);
  return w.take();
}

}  // namespace

std::string toYaml(const Config& config) {
  return write(config, false);
}

std::string referenceYaml() {
  Config config;
  forEachEntry(TRANSPORT_KINDS,
               [&](const auto& kind) { (config.transports.*kind.instances)[""] = {}; });
  config.gateway = GatewayConfig{};
  return write(config, true);
}

}  // namespace fips::privsep::config
