// SPDX-License-Identifier: MIT
// Key file I/O (see key-file.h). Runs in the supervisor (as root) and in
// fipsctl. The key directory and the files in it are not trusted: every open
// uses O_NOFOLLOW, ownership and type are checked on the open descriptor,
// and writes go through an exclusive 0600 temporary file and rename(2), so a
// key is never readable by others, even for a moment, nor half written.
#include "lib/identity/key-file.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <span>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/rand.h>

#include <fmt/format.h>

#include "lib/crypto/rng.h"
#include "lib/crypto/secret.h"
#include "lib/identity/hex.h"
#include "lib/identity/nip19.h"
#include "lib/identity/secret-string.h"
#include "lib/unique-fd.h"

namespace fips::identity {

namespace {

constexpr size_t MAX_KEY_FILE_SIZE = 4096;
constexpr mode_t KEY_FILE_MODE = 0600;
constexpr mode_t PUB_FILE_MODE = 0644;
constexpr int TEMP_NAME_ATTEMPTS = 8;

std::string errnoMessage(std::string_view what, const std::filesystem::path& path) {
  return fmt::format("{} {}: {}", what, path.string(), std::strerror(errno));
}

std::filesystem::path parentDir(const std::filesystem::path& path) {
  std::filesystem::path parent = path.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

// Creates ".<name>.tmp-<random>" in dirFd, exclusively, mode 0600.
std::variant<UniqueFd, std::string> createTemp(int dirFd, const std::filesystem::path& path,
                                               std::string& tempName) {
  for (int attempt = 0; attempt < TEMP_NAME_ATTEMPTS; ++attempt) {
    std::array<uint8_t, 6> random;
    if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
      return std::string("RAND_bytes failed while naming a temporary file");
    }
    tempName = fmt::format(".{}.tmp-{}", path.filename().string(), toHex(random));
    int fd = ::openat(dirFd, tempName.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                      KEY_FILE_MODE);
    if (fd >= 0) return UniqueFd(fd);
    if (errno != EEXIST) return errnoMessage("cannot create a temporary file for", path);
  }
  return fmt::format("cannot create a temporary file for {}: names kept colliding", path.string());
}

bool writeAll(int fd, std::string_view content) {
  while (!content.empty()) {
    ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    content.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Fills the open temporary file, then renames it over `path` and syncs.
std::optional<std::string> fillAndRename(int dirFd, const UniqueFd& file,
                                         const std::string& tempName,
                                         const std::filesystem::path& path,
                                         std::string_view content, mode_t mode) {
  if (::fchmod(file.get(), mode) != 0) return errnoMessage("cannot set the mode of", path);
  if (!writeAll(file.get(), content)) return errnoMessage("cannot write", path);
  if (::fsync(file.get()) != 0) return errnoMessage("cannot fsync", path);
  std::string name = path.filename().string();
  if (::renameat(dirFd, tempName.c_str(), dirFd, name.c_str()) != 0) {
    return errnoMessage("cannot rename a temporary file to", path);
  }
  if (::fsync(dirFd) != 0) return errnoMessage("cannot fsync the directory of", path);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> writeAtomically(const std::filesystem::path& path,
                                           std::string_view content, mode_t mode) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    return fmt::format("refusing to replace {}: it is a symlink", path.string());
  }
  std::filesystem::path dir = parentDir(path);
  UniqueFd dirFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dirFd) return errnoMessage("cannot open the directory of", path);
  std::string tempName;
  auto created = createTemp(dirFd.get(), path, tempName);
  if (auto* err = std::get_if<std::string>(&created)) return std::move(*err);
  UniqueFd file = std::move(std::get<UniqueFd>(created));
  auto err = fillAndRename(dirFd.get(), file, tempName, path, content, mode);
  if (err) ::unlinkat(dirFd.get(), tempName.c_str(), 0);
  return err;
}

namespace {

// Checks the type and owner of an open key file and tightens its mode.
// Returns an error, or sets `warning` when the mode was changed.
std::optional<std::string> checkOpenKeyFile(int fd, const std::filesystem::path& path,
                                            std::optional<std::string>& warning) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return errnoMessage("cannot stat key file", path);
  if (!S_ISREG(st.st_mode)) return fmt::format("key file {} is not a regular file", path.string());
  if (st.st_uid != ::geteuid()) {
    return fmt::format("key file {} is owned by uid {}, not by uid {}; refusing to use it",
                       path.string(), st.st_uid, ::geteuid());
  }
  mode_t mode = st.st_mode & 07777;
  if (mode != KEY_FILE_MODE) {
    if (::fchmod(fd, KEY_FILE_MODE) != 0) return errnoMessage("cannot fix the mode of", path);
    warning = fmt::format("key file {} had mode {:04o}; changed it to {:04o}", path.string(), mode,
                          KEY_FILE_MODE);
  }
  return std::nullopt;
}

// Reads until EOF or until `out` is full; the byte count, or nullopt with
// errno set.
std::optional<size_t> readUpTo(int fd, std::span<uint8_t> out) {
  size_t used = 0;
  while (used < out.size()) {
    ssize_t n = ::read(fd, out.data() + used, out.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  return used;
}

std::string_view trimAsciiSpace(std::string_view text) {
  constexpr std::string_view SPACE = " \t\n\v\f\r";
  size_t first = text.find_first_not_of(SPACE);
  if (first == std::string_view::npos) return {};
  size_t last = text.find_last_not_of(SPACE);
  return text.substr(first, last - first + 1);
}

}  // namespace

std::variant<LoadedKey, std::string> readKeyFile(const crypto::Secp256k1Context& ctx,
                                                 const std::filesystem::path& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) {
    if (errno == ELOOP) {
      return fmt::format("refusing to read key file {}: it is a symlink", path.string());
    }
    return errnoMessage("cannot open key file", path);
  }
  std::optional<std::string> warning;
  if (auto err = checkOpenKeyFile(fd.get(), path, warning)) return std::move(*err);
  // One byte more than the limit, to tell "full" from "too large".
  crypto::Secret<MAX_KEY_FILE_SIZE + 1> buffer;
  std::optional<size_t> used = readUpTo(fd.get(), buffer.mutableBytes());
  if (!used) return errnoMessage("cannot read key file", path);
  if (*used > MAX_KEY_FILE_SIZE) {
    return fmt::format("key file {} is larger than {} bytes", path.string(), MAX_KEY_FILE_SIZE);
  }
  std::string_view text =
      trimAsciiSpace(std::string_view(reinterpret_cast<const char*>(buffer.bytes().data()), *used));
  if (text.empty()) return fmt::format("key file {} is empty", path.string());
  auto parsed = parseSecretKey(ctx, text);
  if (!parsed.ok()) {
    return fmt::format("key file {}: {}", path.string(), parsed.error().message);
  }
  return LoadedKey{std::move(parsed.value()), std::move(warning)};
}

std::optional<std::string> writeKeyFile(const std::filesystem::path& path,
                                        const crypto::SecretKey& key) {
  SecretString nsec = encodeNsec(key);
  std::string line;
  line.reserve(nsec.view().size() + 1);
  line.append(nsec.view());
  line.push_back('\n');
  SecretString content(std::move(line));
  return writeAtomically(path, content.view(), KEY_FILE_MODE);
}

std::optional<std::string> writePubFile(const std::filesystem::path& path,
                                        const crypto::PublicKey& key) {
  mode_t mode = PUB_FILE_MODE;
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) mode = st.st_mode & 07777;
  return writeAtomically(path, encodeNpub(key) + "\n", mode);
}

crypto::SecretKey generateSecretKey(const crypto::Secp256k1Context& ctx) {
  crypto::OpenSslRng rng;
  auto key = crypto::SecretKey::generate(ctx, rng);
  if (!key) throw std::runtime_error("RAND_bytes failed while generating a secret key");
  return std::move(*key);
}

}  // namespace fips::identity
