// SPDX-License-Identifier: MIT
// The client side of a SOCKS5 CONNECT (RFC 1928) with optional
// username/password authentication (RFC 1929), as a sans-IO state machine:
// it says what to write and how many bytes to read, and parses what the
// proxy answers. Runs in fips-transport-tor; the proxy's bytes are untrusted
// and never crash it (a bad reply ends in Socks5Phase::FAILED with a reason).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fips::transport::tor {

// Longest host name, user name or password a request carries (one length byte).
constexpr size_t SOCKS5_MAX_FIELD = 255;

// Where the proxy is asked to connect: a host name sent as a name (ATYP 3,
// the proxy resolves it; a .onion name is only ever resolved by tor) or a
// numeric IPv4 / IPv6 address sent as such (ATYP 1 / 4). Port in host order.
struct Socks5Target {
  std::string host;
  uint16_t port = 0;

  bool operator==(const Socks5Target&) const = default;
};

// RFC 1929 credentials. Tor does not check them: with IsolateSOCKSAuth (on
// by default) streams with different credentials never share a circuit.
struct Socks5Auth {
  std::string username;
  std::string password;

  bool operator==(const Socks5Auth&) const = default;
};

enum class Socks5Phase {
  METHOD,  // greeting sent (or to send), waiting for the method selection
  AUTH,    // credentials sent, waiting for their status
  REPLY,   // CONNECT sent, waiting for the reply
  DONE,    // connected: the stream now carries the tunnelled bytes
  FAILED,  // see error()
};

// Why a handshake failed. The REP codes of RFC 1928 §6 and tor's extended
// onion-service codes (proposal 304, SocksPort ExtendedErrors) keep their
// wire values; the others describe a reply outside the protocol or the
// connection to the proxy.
enum class Socks5Error : uint16_t {
  NONE = 0,
  GENERAL_FAILURE = 0x01,
  NOT_ALLOWED = 0x02,
  NETWORK_UNREACHABLE = 0x03,
  HOST_UNREACHABLE = 0x04,
  CONNECTION_REFUSED = 0x05,
  TTL_EXPIRED = 0x06,
  COMMAND_NOT_SUPPORTED = 0x07,
  ADDRESS_TYPE_NOT_SUPPORTED = 0x08,
  ONION_DESCRIPTOR_NOT_FOUND = 0xF0,
  ONION_DESCRIPTOR_INVALID = 0xF1,
  ONION_INTRO_FAILED = 0xF2,
  ONION_REND_FAILED = 0xF3,
  ONION_MISSING_CLIENT_AUTH = 0xF4,
  ONION_WRONG_CLIENT_AUTH = 0xF5,
  ONION_BAD_ADDRESS = 0xF6,
  ONION_INTRO_TIMEOUT = 0xF7,
  UNKNOWN_REPLY_CODE = 0x100,  // a REP value not listed above
  BAD_VERSION,                 // VER of a method selection or reply is not 5
  NO_ACCEPTABLE_METHOD,        // the proxy answered METHOD 0xFF
  UNOFFERED_METHOD,            // the proxy chose a method we did not offer
  AUTH_BAD_VERSION,            // VER of the RFC 1929 status is not 1
  AUTH_REJECTED,               // RFC 1929 STATUS is not 0
  BAD_RESERVED,                // RSV of the reply is not 0
  BAD_ADDRESS_TYPE,            // ATYP of the reply is not 1, 3 or 4
  PROXY_CLOSED,                // the proxy closed the connection mid-handshake
  IO_ERROR,                    // reading or writing the proxy's socket failed
};

// A short English description, e.g. "connection refused (REP 5)".
std::string socks5ErrorText(Socks5Error error);

// Why the request cannot be sent, or nullopt if it can: the host is empty,
// longer than 255 bytes or holds a NUL; the port is 0; a user name or
// password is empty or longer than 255 bytes.
std::optional<std::string> socks5RequestError(const Socks5Target& target,
                                              const std::optional<Socks5Auth>& auth);

// One SOCKS5 handshake. Drive it with any I/O: write output() and report
// what was written with sent(); read at most wanted() bytes and pass them to
// feed(). Reading exactly wanted() bytes never takes tunnelled data from the
// socket; feed() also accepts more and returns how many bytes it used.
class Socks5Client {
 public:
  // The greeting is queued at once. Requires socks5RequestError() == nullopt
  // (throws std::invalid_argument otherwise: a caller bug, not input).
  Socks5Client(Socks5Target target, std::optional<Socks5Auth> auth);

  // Bytes to write to the proxy now; empty while waiting for an answer.
  std::span<const uint8_t> output() const;
  // `n` bytes of output() were written.
  void sent(size_t n);
  // Bytes the current answer still needs at least; 0 once DONE or FAILED,
  // or while output() is not yet written.
  size_t wanted() const;
  // Parses bytes read from the proxy; returns how many it used (at most
  // what the current answer needs; the rest belongs to the tunnel).
  size_t feed(std::span<const uint8_t> in);
  // Ends the handshake with `error` (the driver's PROXY_CLOSED, IO_ERROR).
  void fail(Socks5Error error);

  Socks5Phase phase() const { return phase_; }
  Socks5Error error() const { return error_; }
  // BND.ADDR:BND.PORT of the reply once DONE ("[v6]:port" for IPv6; a
  // name's bytes outside printable ASCII shown as '?').
  const std::string& boundAddress() const { return bound_; }

 private:
  void queueRequest();
  // Bytes the answer being read has in all, as far as known from in_.
  size_t answerLength() const;
  // Checks the bytes of in_ read so far; moves on when the answer is whole.
  void parseAnswer();
  void parseMethod();
  void parseAuth();
  void parseReply();

  Socks5Target target_;
  std::optional<Socks5Auth> auth_;
  Socks5Phase phase_ = Socks5Phase::METHOD;
  Socks5Error error_ = Socks5Error::NONE;
  std::vector<uint8_t> out_;
  size_t outSent_ = 0;
  std::vector<uint8_t> in_;
  std::string bound_;
};

}  // namespace fips::transport::tor
