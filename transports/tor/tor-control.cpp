// SPDX-License-Identifier: MIT
// Tor control commands and reply interpretation (see tor-control.h).
#include "transports/tor/tor-control.h"

#include <charconv>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <fmt/format.h>

namespace fips::transport::tor {

namespace {

// control-spec §3.24.
constexpr std::string_view SERVER_HASH_KEY =
    "Tor safe cookie authentication server-to-controller hash";
constexpr std::string_view CLIENT_HASH_KEY =
    "Tor safe cookie authentication controller-to-server hash";

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<ControlCookie> hexDecode32(std::string_view hex) {
  if (hex.size() != 2 * CONTROL_COOKIE_SIZE) return std::nullopt;
  ControlCookie out{};
  for (size_t i = 0; i < out.size(); ++i) {
    const int hi = hexValue(hex[2 * i]);
    const int lo = hexValue(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return out;
}

ControlCookie safeCookieHmac(std::string_view key, const ControlCookie& cookie,
                             const ControlCookie& clientNonce, const ControlCookie& serverNonce) {
  std::array<uint8_t, 3 * CONTROL_COOKIE_SIZE> message{};
  std::copy(cookie.begin(), cookie.end(), message.begin());
  std::copy(clientNonce.begin(), clientNonce.end(), message.begin() + CONTROL_COOKIE_SIZE);
  std::copy(serverNonce.begin(), serverNonce.end(), message.begin() + 2 * CONTROL_COOKIE_SIZE);
  ControlCookie mac{};
  unsigned length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), message.data(), message.size(),
       mac.data(), &length);
  OPENSSL_cleanse(message.data(), message.size());
  return mac;
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::optional<uint64_t> parseUint(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Splits "\"a\" \"b\"" (space-separated QuotedStrings or bare words).
std::vector<std::string> splitQuotedList(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    if (text[i] == '"') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2u : 1u;
      if (j >= text.size()) break;
      if (auto s = unquoteControlString(text.substr(i + 1, j - i - 1))) out.push_back(*s);
      i = j + 1;
    } else {
      const size_t j = std::min(text.find(' ', i), text.size());
      out.emplace_back(text.substr(i, j - i));
      i = j;
    }
  }
  return out;
}

}  // namespace

std::string hexEncode(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve(2 * bytes.size());
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

std::string quoteControlString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

std::optional<std::string> unquoteControlString(std::string_view quoted) {
  std::string out;
  for (size_t i = 0; i < quoted.size(); ++i) {
    if (quoted[i] != '\\') {
      out.push_back(quoted[i]);
      continue;
    }
    if (++i == quoted.size()) return std::nullopt;
    const char c = quoted[i];
    switch (c) {
      case '\\':
      case '"':
      case '\'':
        out.push_back(c);
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 't':
        out.push_back('\t');
        break;
      default: {
        if (c < '0' || c > '7' || i + 2 >= quoted.size() || quoted[i + 1] < '0' ||
            quoted[i + 1] > '7' || quoted[i + 2] < '0' || quoted[i + 2] > '7') {
          return std::nullopt;
        }
        const int value = (c - '0') * 64 + (quoted[i + 1] - '0') * 8 + (quoted[i + 2] - '0');
        if (value > 255) return std::nullopt;
        out.push_back(static_cast<char>(value));
        i += 2;
      }
    }
  }
  return out;
}

std::optional<std::map<std::string, std::string>> parseKeywordArgs(std::string_view line) {
  std::map<std::string, std::string> args;
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '=') ++j;
    if (j == line.size() || line[j] == ' ') {  // a bare word
      i = j;
      continue;
    }
    const std::string key(line.substr(i, j - i));
    i = j + 1;
    if (i < line.size() && line[i] == '"') {
      size_t k = i + 1;
      while (k < line.size() && line[k] != '"') k += line[k] == '\\' ? 2u : 1u;
      if (k >= line.size()) return std::nullopt;
      auto value = unquoteControlString(line.substr(i + 1, k - i - 1));
      if (!value) return std::nullopt;
      args[key] = std::move(*value);
      i = k + 1;
    } else {
      const size_t k = std::min(line.find(' ', i), line.size());
      args[key] = std::string(line.substr(i, k - i));
      i = k;
    }
  }
  return args;
}

bool ProtocolInfo::has(std::string_view method) const {
  for (const auto& m : authMethods) {
    if (m == method) return true;
  }
  return false;
}

std::optional<ProtocolInfo> parseProtocolInfo(const ControlReply& reply) {
  if (!reply.ok()) return std::nullopt;
  ProtocolInfo info;
  bool sawAuth = false;
  for (const auto& line : reply.lines) {
    if (startsWith(line.text, "AUTH ")) {
      auto args = parseKeywordArgs(std::string_view(line.text).substr(5));
      if (!args || !args->contains("METHODS")) return std::nullopt;
      sawAuth = true;
      std::string_view methods = (*args)["METHODS"];
      while (!methods.empty()) {
        const size_t comma = std::min(methods.find(','), methods.size());
        info.authMethods.emplace_back(methods.substr(0, comma));
        methods.remove_prefix(std::min(comma + 1, methods.size()));
      }
      info.cookieFile = (*args)["COOKIEFILE"];
    } else if (startsWith(line.text, "VERSION ")) {
      auto args = parseKeywordArgs(std::string_view(line.text).substr(8));
      if (args) info.torVersion = (*args)["Tor"];
    }
  }
  if (!sawAuth) return std::nullopt;
  return info;
}

std::string authChallengeCommand(const ControlCookie& clientNonce) {
  return "AUTHCHALLENGE SAFECOOKIE " + hexEncode(clientNonce);
}

std::optional<AuthChallenge> parseAuthChallenge(const ControlReply& reply) {
  if (!reply.ok() || reply.lines.size() != 1 ||
      !startsWith(reply.lines[0].text, "AUTHCHALLENGE ")) {
    return std::nullopt;
  }
  auto args = parseKeywordArgs(std::string_view(reply.lines[0].text).substr(14));
  if (!args) return std::nullopt;
  auto hash = hexDecode32((*args)["SERVERHASH"]);
  auto nonce = hexDecode32((*args)["SERVERNONCE"]);
  if (!hash || !nonce) return std::nullopt;
  return AuthChallenge{*hash, *nonce};
}

std::optional<std::string> safeCookieAuthenticate(const ControlCookie& cookie,
                                                  const ControlCookie& clientNonce,
                                                  const AuthChallenge& challenge) {
  const auto expected = safeCookieHmac(SERVER_HASH_KEY, cookie, clientNonce, challenge.serverNonce);
  if (CRYPTO_memcmp(expected.data(), challenge.serverHash.data(), expected.size()) != 0) {
    return std::nullopt;
  }
  return "AUTHENTICATE " +
         hexEncode(safeCookieHmac(CLIENT_HASH_KEY, cookie, clientNonce, challenge.serverNonce));
}

std::string cookieAuthenticate(const ControlCookie& cookie) {
  return "AUTHENTICATE " + hexEncode(cookie);
}

std::string passwordAuthenticate(std::string_view password) {
  return "AUTHENTICATE " + quoteControlString(password);
}

std::optional<std::map<std::string, std::string>> parseGetInfo(const ControlReply& reply) {
  if (!reply.ok()) return std::nullopt;
  std::map<std::string, std::string> values;
  for (size_t i = 0; i + 1 < reply.lines.size(); ++i) {
    const auto& line = reply.lines[i];
    const size_t eq = line.text.find('=');
    if (eq == std::string::npos) continue;
    values[line.text.substr(0, eq)] = line.data ? *line.data : line.text.substr(eq + 1);
  }
  return values;
}

std::optional<BootstrapPhase> parseBootstrapPhase(std::string_view value) {
  auto args = parseKeywordArgs(value);
  if (!args || !args->contains("PROGRESS")) return std::nullopt;
  const auto progress = parseUint((*args)["PROGRESS"]);
  if (!progress || *progress > 100) return std::nullopt;
  return BootstrapPhase{static_cast<int>(*progress), (*args)["TAG"], (*args)["SUMMARY"]};
}

std::string statusGetInfoCommand() {
  return "GETINFO status/bootstrap-phase status/circuit-established traffic/read "
         "traffic/written network-liveness version dormant net/listeners/socks";
}

std::optional<TorStatus> parseStatus(const ControlReply& reply) {
  auto values = parseGetInfo(reply);
  if (!values) return std::nullopt;
  TorStatus status;
  auto& v = *values;
  status.bootstrap = parseBootstrapPhase(v["status/bootstrap-phase"]);
  status.circuitEstablished = v["status/circuit-established"] == "1";
  status.trafficRead = parseUint(v["traffic/read"]).value_or(0);
  status.trafficWritten = parseUint(v["traffic/written"]).value_or(0);
  status.networkLiveness = v["network-liveness"];
  status.version = v["version"];
  status.dormant = v["dormant"] == "1";
  status.socksListeners = splitQuotedList(v["net/listeners/socks"]);
  return status;
}

std::string addOnionCommand(std::string_view key, const std::vector<std::string>& ports,
                            bool detach) {
  std::string command = fmt::format("ADD_ONION {}", key);
  if (detach) command += " Flags=Detach";
  for (const auto& port : ports) command += " Port=" + port;
  return command;
}

std::string delOnionCommand(std::string_view serviceId) {
  return fmt::format("DEL_ONION {}", serviceId);
}

std::optional<AddOnionResult> parseAddOnion(const ControlReply& reply) {
  if (!reply.ok()) return std::nullopt;
  AddOnionResult result;
  for (const auto& line : reply.lines) {
    if (startsWith(line.text, "ServiceID=")) result.serviceId = line.text.substr(10);
    if (startsWith(line.text, "PrivateKey=")) result.privateKey = line.text.substr(11);
  }
  if (result.serviceId.size() != 56) return std::nullopt;
  return result;
}

}  // namespace fips::transport::tor
