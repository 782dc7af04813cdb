// SPDX-License-Identifier: MIT
// Tor control-port commands and what their replies mean (control-spec
// §3.2 AUTHENTICATE, §3.9 GETINFO, §3.21 PROTOCOLINFO, §3.24 AUTHCHALLENGE,
// §3.27 ADD_ONION), without I/O: builders give the command line to send,
// interpreters read a ControlReply. Runs in fips-transport-tor; replies are
// checked, never trusted to be well formed.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "transports/tor/control-reply.h"

namespace fips::transport::tor {

// Size of tor's control auth cookie and of each SAFECOOKIE nonce.
constexpr size_t CONTROL_COOKIE_SIZE = 32;
using ControlCookie = std::array<uint8_t, CONTROL_COOKIE_SIZE>;

// `text` as a control-spec QuotedString: in double quotes, with '\' and '"'
// escaped, CR, LF and TAB as \r \n \t.
std::string quoteControlString(std::string_view text);

// Undoes a QuotedString's escapes (\\ \" \n \r \t and octal \NNN) of the
// text between the quotes; nullopt on a dangling or unknown escape.
std::optional<std::string> unquoteControlString(std::string_view quoted);

// KEY=VALUE arguments of a reply line ("PROGRESS=100 TAG=done
// SUMMARY=\"Done\""): values may be QuotedStrings. Words without '=' are
// skipped. nullopt if a quoted value is malformed.
std::optional<std::map<std::string, std::string>> parseKeywordArgs(std::string_view line);

// What PROTOCOLINFO 1 says (§3.21).
struct ProtocolInfo {
  std::vector<std::string> authMethods;  // NULL, HASHEDPASSWORD, COOKIE, SAFECOOKIE
  std::string cookieFile;                // "" when tor named none
  std::string torVersion;

  bool has(std::string_view method) const;
};

// Interprets the reply to "PROTOCOLINFO 1"; nullopt if it is an error or
// has no AUTH line.
std::optional<ProtocolInfo> parseProtocolInfo(const ControlReply& reply);

// SAFECOOKIE (§3.24): the server's answer to AUTHCHALLENGE.
struct AuthChallenge {
  ControlCookie serverHash{};
  ControlCookie serverNonce{};
};

// "AUTHCHALLENGE SAFECOOKIE <client nonce hex>".
std::string authChallengeCommand(const ControlCookie& clientNonce);

// Interprets "250 AUTHCHALLENGE SERVERHASH=<64 hex> SERVERNONCE=<64 hex>".
std::optional<AuthChallenge> parseAuthChallenge(const ControlReply& reply);

// The AUTHENTICATE line that answers a challenge: "AUTHENTICATE <hex of
// HMAC-SHA256(controller-to-server key, cookie | client nonce | server
// nonce)>", or nullopt if the server's hash is not the one the cookie gives
// (the server does not know the cookie: never answer it).
std::optional<std::string> safeCookieAuthenticate(const ControlCookie& cookie,
                                                  const ControlCookie& clientNonce,
                                                  const AuthChallenge& challenge);

// "AUTHENTICATE <cookie hex>" (COOKIE) and "AUTHENTICATE \"password\""
// (HASHEDPASSWORD); "AUTHENTICATE" alone for NULL.
std::string cookieAuthenticate(const ControlCookie& cookie);
std::string passwordAuthenticate(std::string_view password);

// The KEY=VALUE pairs of a GETINFO reply (one-line and data-block values);
// nullopt if the reply is an error.
std::optional<std::map<std::string, std::string>> parseGetInfo(const ControlReply& reply);

// status/bootstrap-phase: "NOTICE BOOTSTRAP PROGRESS=100 TAG=done SUMMARY=\"Done\"".
struct BootstrapPhase {
  int progress = 0;  // 0-100
  std::string tag;
  std::string summary;
};
std::optional<BootstrapPhase> parseBootstrapPhase(std::string_view value);

// The GETINFO keys the transport shows (the reference's monitoring set,
// plus net/listeners/socks), in one command.
std::string statusGetInfoCommand();

// A snapshot from the reply to statusGetInfoCommand(); fields tor did not
// answer keep their defaults.
struct TorStatus {
  std::optional<BootstrapPhase> bootstrap;
  bool circuitEstablished = false;
  uint64_t trafficRead = 0;     // bytes since tor started
  uint64_t trafficWritten = 0;  // bytes since tor started
  std::string networkLiveness;  // "up" / "down"
  std::string version;
  bool dormant = false;
  std::vector<std::string> socksListeners;  // "127.0.0.1:9050"
};
std::optional<TorStatus> parseStatus(const ControlReply& reply);

// ADD_ONION (§3.27). `key` is "NEW:ED25519-V3" or "ED25519-V3:<base64>";
// `ports` each "VIRTPORT,TARGET" (e.g. "443,127.0.0.1:8443"); `detach`
// keeps the service after the control connection closes.
std::string addOnionCommand(std::string_view key, const std::vector<std::string>& ports,
                            bool detach);

// "DEL_ONION <service id>".
std::string delOnionCommand(std::string_view serviceId);

// The reply to ADD_ONION: the service id (56 base32 characters, without
// ".onion") and, for a NEW key, "ED25519-V3:<base64>".
struct AddOnionResult {
  std::string serviceId;
  std::string privateKey;
};
std::optional<AddOnionResult> parseAddOnion(const ControlReply& reply);

// Lowercase hex of `bytes`.
std::string hexEncode(std::span<const uint8_t> bytes);

}  // namespace fips::transport::tor
