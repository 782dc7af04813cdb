// SPDX-License-Identifier: MIT
// SOCKS5 handshake state machine (RFC 1928, RFC 1929). Runs in
// fips-transport-tor; parses the proxy's untrusted answers byte by byte.
//
//   METHOD  -> VER 5, NMETHODS, METHODS (0 = none, 2 = user/password)
//           <- VER 5, METHOD
//   AUTH    -> VER 1, ULEN, UNAME, PLEN, PASSWD        (RFC 1929 §2)
//           <- VER 1, STATUS
//   REPLY   -> VER 5, CMD 1, RSV 0, ATYP, DST.ADDR, DST.PORT
//           <- VER 5, REP, RSV 0, ATYP, BND.ADDR, BND.PORT
#include "transports/tor/socks5-client.h"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

namespace fips::transport::tor {

namespace {

constexpr uint8_t VERSION = 5;
constexpr uint8_t AUTH_VERSION = 1;
constexpr uint8_t METHOD_NONE = 0x00;
constexpr uint8_t METHOD_PASSWORD = 0x02;
constexpr uint8_t METHOD_NO_ACCEPTABLE = 0xFF;
constexpr uint8_t CMD_CONNECT = 1;
constexpr uint8_t ATYP_IPV4 = 1;
constexpr uint8_t ATYP_NAME = 3;
constexpr uint8_t ATYP_IPV6 = 4;
// VER, REP, RSV, ATYP.
constexpr size_t REPLY_HEADER = 4;

void appendField(std::vector<uint8_t>& out, std::string_view field) {
  out.push_back(static_cast<uint8_t>(field.size()));
  out.insert(out.end(), field.begin(), field.end());
}

void appendPort(std::vector<uint8_t>& out, uint16_t port) {
  out.push_back(static_cast<uint8_t>(port >> 8));
  out.push_back(static_cast<uint8_t>(port & 0xFF));
}

Socks5Error replyCodeError(uint8_t rep) {
  if ((rep >= 0x01 && rep <= 0x08) || (rep >= 0xF0 && rep <= 0xF7)) {
    return static_cast<Socks5Error>(rep);
  }
  return Socks5Error::UNKNOWN_REPLY_CODE;
}

}  // namespace

std::string socks5ErrorText(Socks5Error error) {
  const auto code = static_cast<uint16_t>(error);
  auto rep = [code](std::string_view what) { return fmt::format("{} (REP {:#04x})", what, code); };
  switch (error) {
    case Socks5Error::NONE:
      return "no error";
    case Socks5Error::GENERAL_FAILURE:
      return rep("general SOCKS server failure");
    case Socks5Error::NOT_ALLOWED:
      return rep("connection not allowed by ruleset");
    case Socks5Error::NETWORK_UNREACHABLE:
      return rep("network unreachable");
    case Socks5Error::HOST_UNREACHABLE:
      return rep("host unreachable");
    case Socks5Error::CONNECTION_REFUSED:
      return rep("connection refused");
    case Socks5Error::TTL_EXPIRED:
      return rep("TTL expired");
    case Socks5Error::COMMAND_NOT_SUPPORTED:
      return rep("command not supported");
    case Socks5Error::ADDRESS_TYPE_NOT_SUPPORTED:
      return rep("address type not supported");
    case Socks5Error::ONION_DESCRIPTOR_NOT_FOUND:
      return rep("onion service descriptor not found");
    case Socks5Error::ONION_DESCRIPTOR_INVALID:
      return rep("onion service descriptor invalid");
    case Socks5Error::ONION_INTRO_FAILED:
      return rep("onion service introduction failed");
    case Socks5Error::ONION_REND_FAILED:
      return rep("onion service rendezvous failed");
    case Socks5Error::ONION_MISSING_CLIENT_AUTH:
      return rep("onion service needs client auth");
    case Socks5Error::ONION_WRONG_CLIENT_AUTH:
      return rep("onion service client auth wrong");
    case Socks5Error::ONION_BAD_ADDRESS:
      return rep("invalid onion address");
    case Socks5Error::ONION_INTRO_TIMEOUT:
      return rep("onion service introduction timed out");
    case Socks5Error::UNKNOWN_REPLY_CODE:
      return "unknown SOCKS5 reply code";
    case Socks5Error::BAD_VERSION:
      return "proxy answered with a version other than 5";
    case Socks5Error::NO_ACCEPTABLE_METHOD:
      return "proxy accepts none of our auth methods";
    case Socks5Error::UNOFFERED_METHOD:
      return "proxy chose an auth method we did not offer";
    case Socks5Error::AUTH_BAD_VERSION:
      return "proxy's auth status has a version other than 1";
    case Socks5Error::AUTH_REJECTED:
      return "proxy rejected the user name and password";
    case Socks5Error::BAD_RESERVED:
      return "proxy's reply has a non-zero reserved byte";
    case Socks5Error::BAD_ADDRESS_TYPE:
      return "proxy's reply has an unknown address type";
    case Socks5Error::PROXY_CLOSED:
      return "proxy closed the connection during the handshake";
    case Socks5Error::IO_ERROR:
      return "I/O error on the proxy connection";
  }
  return fmt::format("SOCKS5 error {}", code);
}

std::optional<std::string> socks5RequestError(const Socks5Target& target,
                                              const std::optional<Socks5Auth>& auth) {
  if (target.host.empty()) return "empty host";
  if (target.host.size() > SOCKS5_MAX_FIELD) return "host longer than 255 bytes";
  if (target.host.find('\0') != std::string::npos) return "host holds a NUL byte";
  if (target.port == 0) return "port 0";
  if (auth) {
    if (auth->username.empty() || auth->username.size() > SOCKS5_MAX_FIELD) {
      return "user name not 1 to 255 bytes";
    }
    if (auth->password.empty() || auth->password.size() > SOCKS5_MAX_FIELD) {
      return "password not 1 to 255 bytes";
    }
  }
  return std::nullopt;
}

Socks5Client::Socks5Client(Socks5Target target, std::optional<Socks5Auth> auth)
    : target_(std::move(target)), auth_(std::move(auth)) {
  if (auto why = socks5RequestError(target_, auth_)) {
    throw std::invalid_argument("SOCKS5 request: " + *why);
  }
  // Offer only what we will do: with credentials, the password method alone
  // (a proxy that skips it would also skip the isolation they give).
  out_ = {VERSION, 1, auth_ ? METHOD_PASSWORD : METHOD_NONE};
}

std::span<const uint8_t> Socks5Client::output() const {
  return std::span<const uint8_t>(out_).subspan(outSent_);
}

void Socks5Client::sent(size_t n) {
  outSent_ = std::min(out_.size(), outSent_ + n);
  if (outSent_ == out_.size()) {
    out_.clear();
    outSent_ = 0;
  }
}

size_t Socks5Client::answerLength() const {
  switch (phase_) {
    case Socks5Phase::METHOD:
    case Socks5Phase::AUTH:
      return 2;
    case Socks5Phase::REPLY:
      if (in_.size() < REPLY_HEADER) return REPLY_HEADER + 1;
      switch (in_[3]) {
        case ATYP_IPV4:
          return REPLY_HEADER + 4 + 2;
        case ATYP_IPV6:
          return REPLY_HEADER + 16 + 2;
        default:
          return in_.size() < REPLY_HEADER + 1 ? REPLY_HEADER + 1 : REPLY_HEADER + 1 + in_[4] + 2;
      }
    case Socks5Phase::DONE:
    case Socks5Phase::FAILED:
      return 0;
  }
  return 0;
}

size_t Socks5Client::wanted() const {
  if (!out_.empty()) return 0;
  const size_t length = answerLength();
  return length > in_.size() ? length - in_.size() : 0;
}

size_t Socks5Client::feed(std::span<const uint8_t> in) {
  size_t used = 0;
  while (used < in.size() && wanted() > 0) {
    const size_t take = std::min(wanted(), in.size() - used);
    in_.insert(in_.end(), in.begin() + static_cast<std::ptrdiff_t>(used),
               in.begin() + static_cast<std::ptrdiff_t>(used + take));
    used += take;
    parseAnswer();
  }
  return used;
}

void Socks5Client::fail(Socks5Error error) {
  if (phase_ == Socks5Phase::DONE || phase_ == Socks5Phase::FAILED) return;
  phase_ = Socks5Phase::FAILED;
  error_ = error;
  out_.clear();
  outSent_ = 0;
}

void Socks5Client::parseAnswer() {
  switch (phase_) {
    case Socks5Phase::METHOD:
      parseMethod();
      break;
    case Socks5Phase::AUTH:
      parseAuth();
      break;
    case Socks5Phase::REPLY:
      parseReply();
      break;
    case Socks5Phase::DONE:
    case Socks5Phase::FAILED:
      break;
  }
}

void Socks5Client::parseMethod() {
  if (in_[0] != VERSION) return fail(Socks5Error::BAD_VERSION);
  if (in_.size() < 2) return;
  const uint8_t method = in_[1];
  in_.clear();
  if (method == METHOD_NO_ACCEPTABLE) return fail(Socks5Error::NO_ACCEPTABLE_METHOD);
  if (method != (auth_ ? METHOD_PASSWORD : METHOD_NONE)) {
    return fail(Socks5Error::UNOFFERED_METHOD);
  }
  if (!auth_) return queueRequest();
  // RFC 1929 §2
  phase_ = Socks5Phase::AUTH;
  out_ = {AUTH_VERSION};
  appendField(out_, auth_->username);
  appendField(out_, auth_->password);
}

void Socks5Client::parseAuth() {
  if (in_[0] != AUTH_VERSION) return fail(Socks5Error::AUTH_BAD_VERSION);
  if (in_.size() < 2) return;
  const uint8_t status = in_[1];
  in_.clear();
  if (status != 0) return fail(Socks5Error::AUTH_REJECTED);
  queueRequest();
}

void Socks5Client::queueRequest() {
  phase_ = Socks5Phase::REPLY;
  out_ = {VERSION, CMD_CONNECT, 0};
  std::array<uint8_t, 16> numeric{};
  if (inet_pton(AF_INET, target_.host.c_str(), numeric.data()) == 1) {
    out_.push_back(ATYP_IPV4);
    out_.insert(out_.end(), numeric.begin(), numeric.begin() + 4);
  } else if (inet_pton(AF_INET6, target_.host.c_str(), numeric.data()) == 1) {
    out_.push_back(ATYP_IPV6);
    out_.insert(out_.end(), numeric.begin(), numeric.end());
  } else {
    out_.push_back(ATYP_NAME);
    appendField(out_, target_.host);
  }
  appendPort(out_, target_.port);
}

void Socks5Client::parseReply() {
  // Each byte is checked as soon as it is in, so a proxy that answers an
  // error and closes is reported by its REP, not as a closed connection.
  if (in_[0] != VERSION) return fail(Socks5Error::BAD_VERSION);
  if (in_.size() < 2) return;
  if (in_[1] != 0) return fail(replyCodeError(in_[1]));
  if (in_.size() < 3) return;
  if (in_[2] != 0) return fail(Socks5Error::BAD_RESERVED);
  if (in_.size() < 4) return;
  const uint8_t atyp = in_[3];
  if (atyp != ATYP_IPV4 && atyp != ATYP_IPV6 && atyp != ATYP_NAME) {
    return fail(Socks5Error::BAD_ADDRESS_TYPE);
  }
  if (in_.size() < answerLength()) return;
  const auto addr =
      std::span<const uint8_t>(in_).subspan(REPLY_HEADER, in_.size() - REPLY_HEADER - 2);
  const uint16_t port = static_cast<uint16_t>(in_[in_.size() - 2] << 8 | in_[in_.size() - 1]);
  if (atyp == ATYP_NAME) {
    std::string name;
    for (uint8_t c : addr.subspan(1))
      name.push_back(c >= 0x20 && c < 0x7F ? static_cast<char>(c) : '?');
    bound_ = fmt::format("{}:{}", name, port);
  } else {
    std::array<char, INET6_ADDRSTRLEN> text{};
    inet_ntop(atyp == ATYP_IPV4 ? AF_INET : AF_INET6, addr.data(), text.data(), text.size());
    bound_ = atyp == ATYP_IPV4 ? fmt::format("{}:{}", text.data(), port)
                               : fmt::format("[{}]:{}", text.data(), port);
  }
  in_.clear();
  phase_ = Socks5Phase::DONE;
}

}  // namespace fips::transport::tor
