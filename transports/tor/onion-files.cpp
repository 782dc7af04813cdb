// SPDX-License-Identifier: MIT
// Onion service key and hostname files (see onion-files.h).
#include "transports/tor/onion-files.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include <fmt/format.h>

#include "lib/unique-fd.h"
#include "transports/tor/tor-address.h"

namespace fips::transport::tor {

namespace {

constexpr std::string_view KEY_PREFIX = "ED25519-V3:";
// base64 of 64 bytes: 88 characters with "==" padding.
constexpr size_t KEY_BASE64 = 88;
// Longest file we read: the line and a newline, with room to notice more.
constexpr size_t MAX_FILE = 256;

bool isBase64(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

std::string errnoText(std::string_view what, const std::filesystem::path& path) {
  return fmt::format("{} {}: {}", what, path.string(), std::strerror(errno));
}

}  // namespace

bool isOnionKey(std::string_view key) {
  if (key.size() != KEY_PREFIX.size() + KEY_BASE64 ||
      key.substr(0, KEY_PREFIX.size()) != KEY_PREFIX) {
    return false;
  }
  const auto b64 = key.substr(KEY_PREFIX.size());
  for (size_t i = 0; i + 2 < b64.size(); ++i) {
    if (!isBase64(b64[i])) return false;
  }
  return b64.substr(KEY_BASE64 - 2) == "==";
}

OnionKeyLoad loadOnionKey(const std::filesystem::path& path) {
  OnionKeyLoad result;
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd) {
    if (errno != ENOENT) result.error = errnoText("cannot open", path);
    return result;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    result.error = errnoText("cannot stat", path);
    return result;
  }
  if (!S_ISREG(st.st_mode)) {
    result.error = fmt::format("{} is not a regular file", path.string());
    return result;
  }
  result.tooOpen = (st.st_mode & 0077) != 0;
  char buf[MAX_FILE];
  size_t have = 0;
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf + have, sizeof buf - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      result.error = errnoText("cannot read", path);
      return result;
    }
    if (n == 0 || (have += static_cast<size_t>(n)) == sizeof buf) break;
  }
  std::string_view text(buf, have);
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (isOnionKey(text)) {
    result.key = std::string(text);
  } else {
    result.error = fmt::format("{} does not hold an ED25519-V3 onion key", path.string());
  }
  OPENSSL_cleanse(buf, sizeof buf);
  return result;
}

std::string checkOnionKeyWritable(const std::filesystem::path& path) {
  const auto tmp = std::filesystem::path(path.string() + ".new");
  ::unlink(tmp.c_str());
  UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd) return errnoText("cannot create", tmp);
  ::unlink(tmp.c_str());
  return "";
}

std::string saveOnionKey(const std::filesystem::path& path, std::string_view key) {
  if (!isOnionKey(key)) return "not an ED25519-V3 onion key";
  const auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  const auto tmp = std::filesystem::path(path.string() + ".new");
  ::unlink(tmp.c_str());
  UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd) return errnoText("cannot create", tmp);
  std::string line = std::string(key) + "\n";
  const ssize_t n = ::write(fd.get(), line.data(), line.size());
  OPENSSL_cleanse(line.data(), line.size());
  if (n != static_cast<ssize_t>(key.size() + 1) || ::fchmod(fd.get(), 0600) != 0 ||
      ::fsync(fd.get()) != 0) {
    const std::string why = errnoText("cannot write", tmp);
    ::unlink(tmp.c_str());
    return why;
  }
  fd.reset();
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errnoText("cannot rename to", path);
    ::unlink(tmp.c_str());
    return why;
  }
  UniqueFd dirFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dirFd || ::fsync(dirFd.get()) != 0) return errnoText("cannot fsync", dir);
  return "";
}

OnionHostnameLoad loadOnionHostname(const std::filesystem::path& path) {
  OnionHostnameLoad result;
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    result.error = errnoText("cannot open", path);
    return result;
  }
  char buf[MAX_FILE];
  const ssize_t n = ::read(fd.get(), buf, sizeof buf);
  if (n < 0) {
    result.error = errnoText("cannot read", path);
    return result;
  }
  std::string_view text(buf, static_cast<size_t>(n));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) {
    text.remove_suffix(1);
  }
  if (isOnionV3Hostname(text)) {
    result.hostname = std::string(text);
  } else {
    result.error = fmt::format("{} does not hold an onion v3 hostname", path.string());
  }
  return result;
}

}  // namespace fips::transport::tor
