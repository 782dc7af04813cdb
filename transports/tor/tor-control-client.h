// SPDX-License-Identifier: MIT
// A blocking client of tor's control port (TCP "127.0.0.1:9051" or a unix
// socket path), each call bounded by a timeout: connect, authenticate (the
// best method PROTOCOLINFO offers that the config allows), the status
// GETINFOs, and an onion service whose key is kept in the node's state
// directory. Each call blocks up to the timeout: for tools, tests and a
// control thread; the worker's event loop drives a ControlPipeline (the
// same command/reply code) itself. Runs in fips-transport-tor; tor's
// replies are parsed as untrusted.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/unique-fd.h"
#include "transports/tor/control-pipeline.h"
#include "transports/tor/control-reply.h"
#include "transports/tor/tor-control.h"

namespace fips::transport::tor {

// transports.tor.control_auth: "cookie" (the file PROTOCOLINFO names),
// "cookie:/path" or "password:secret" (the reference's forms).
struct ControlAuth {
  enum class Kind { COOKIE, PASSWORD };
  Kind kind = Kind::COOKIE;
  std::string cookiePath;  // "" = the file tor names
  std::string password;
};

// Parses a control_auth value; nullopt if it is none of the three forms.
std::optional<ControlAuth> parseControlAuth(std::string_view text);

class TorControlClient {
 public:
  // Connects to `address` ("host:port" numeric, or a path starting with '/'
  // or "./" for a unix socket). nullptr and `error` set on failure.
  static std::unique_ptr<TorControlClient> connect(std::string_view address,
                                                   std::chrono::milliseconds timeout,
                                                   std::string& error);

  TorControlClient(const TorControlClient&) = delete;
  TorControlClient& operator=(const TorControlClient&) = delete;

  // Sends `line` (CRLF added) and returns its reply; asynchronous events
  // that arrive first are skipped. nullopt on timeout, closed connection or
  // a malformed stream (see error()); the client is then unusable.
  std::optional<ControlReply> command(std::string_view line);

  // PROTOCOLINFO, then SAFECOOKIE if tor offers it (COOKIE otherwise) for a
  // cookie config, the password for a password config, or nothing if tor
  // asks for nothing. "" on success, or why it failed.
  std::string authenticate(const ControlAuth& auth);

  // The status GETINFOs (statusGetInfoCommand()); nullopt with error().
  std::optional<TorStatus> status();

  // The reason of the last failure.
  const std::string& error() const { return error_; }

 private:
  TorControlClient(UniqueFd fd, std::chrono::milliseconds timeout);
  std::string authenticateCookie(const ProtocolInfo& info, const ControlAuth& auth);

  UniqueFd fd_;
  std::chrono::milliseconds timeout_;
  ControlPipeline pipeline_;
  std::string error_;
};

// An onion service from ADD_ONION.
struct OnionService {
  std::string serviceId;    // 56 base32 characters
  bool keyCreated = false;  // a NEW key was made and saved this time
  std::string error;        // "" on success
  std::string hostname() const { return serviceId + ".onion"; }
};

// Adds the onion service with the key saved at `keyPath`, or, if there is
// none, with a new key that is then saved there (0600, atomically). `ports`
// as for addOnionCommand. A key file that cannot be read is an error (a new
// key would change the node's onion address).
OnionService addOnionWithSavedKey(TorControlClient& client, const std::filesystem::path& keyPath,
                                  const std::vector<std::string>& ports, bool detach);

}  // namespace fips::transport::tor
