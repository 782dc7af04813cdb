// SPDX-License-Identifier: MIT
// Tests of fips.key/fips.pub I/O: modes, atomicity, symlinks, ownership,
// mode repair and parse errors, in a temporary directory. Test-only; the
// ownership test needs root (it chowns a file) and is skipped otherwise.
#include "lib/identity/key-file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "lib/crypto/secp256k1-context.h"
#include "lib/identity/hex.h"
#include "lib/identity/nip19.h"
#include "lib/identity/test-util.h"

namespace fips::identity {
namespace {

using test::contains;
using test::entryCount;
using test::expectError;
using test::expectValue;
using test::fileMode;
using test::readText;
using test::TempDir;
using test::writeText;

// Sets the umask for one scope.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : old_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(old_); }
  ScopedUmask(const ScopedUmask&) = delete;
  ScopedUmask& operator=(const ScopedUmask&) = delete;

 private:
  mode_t old_;
};

TEST_CASE("key files: written with modes 0600/0644 whatever the umask, no temp files left") {
  crypto::Secp256k1Context ctx;
  crypto::SecretKey keypair = generateSecretKey(ctx);
  for (mode_t mask : {mode_t{0}, mode_t{022}, mode_t{077}}) {
    CAPTURE(mask);
    TempDir dir;
    ScopedUmask umask(mask);
    auto keyPath = dir.path() / "fips.key";
    auto pubPath = dir.path() / "fips.pub";
    REQUIRE_FALSE(writeKeyFile(keyPath, keypair));
    REQUIRE_FALSE(writePubFile(pubPath, keypair.publicKey()));
    CHECK(fileMode(keyPath) == 0600);
    CHECK(fileMode(pubPath) == 0644);
    CHECK(readText(keyPath) == std::string(encodeNsec(keypair).view()) + "\n");
    CHECK(readText(pubPath) == encodeNpub(keypair.publicKey()) + "\n");
    CHECK(entryCount(dir.path()) == 2);
  }
}

TEST_CASE("key files: rewriting replaces the file and keeps an operator's fips.pub mode") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  auto keyPath = dir.path() / "fips.key";
  auto pubPath = dir.path() / "fips.pub";
  crypto::SecretKey first = generateSecretKey(ctx);
  crypto::SecretKey second = generateSecretKey(ctx);
  REQUIRE_FALSE(writeKeyFile(keyPath, first));
  REQUIRE_FALSE(writePubFile(pubPath, first.publicKey()));
  REQUIRE(::chmod(keyPath.c_str(), 0640) == 0);
  REQUIRE(::chmod(pubPath.c_str(), 0600) == 0);
  REQUIRE_FALSE(writeKeyFile(keyPath, second));
  REQUIRE_FALSE(writePubFile(pubPath, second.publicKey()));
  CHECK(fileMode(keyPath) == 0600);
  CHECK(fileMode(pubPath) == 0600);
  auto loaded = readKeyFile(ctx, keyPath);
  CHECK(expectValue(loaded).secretKey.equals(second));
  CHECK(readText(pubPath) == encodeNpub(second.publicKey()) + "\n");
  CHECK(entryCount(dir.path()) == 2);
}

TEST_CASE("key files: read back, trimmed, nsec or hex, without a warning at 0600") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  auto keyPath = dir.path() / "fips.key";
  crypto::SecretKey keypair = generateSecretKey(ctx);
  REQUIRE_FALSE(writeKeyFile(keyPath, keypair));
  auto loaded = readKeyFile(ctx, keyPath);
  LoadedKey& key = expectValue(loaded);
  CHECK(key.secretKey.equals(keypair));
  CHECK_FALSE(key.warning.has_value());

  auto hexPath = dir.path() / "hex.key";
  writeText(hexPath, "  \n" + toHex(keypair.secret().bytes()) + " \r\n\t");
  REQUIRE(::chmod(hexPath.c_str(), 0600) == 0);
  auto fromHex = readKeyFile(ctx, hexPath);
  CHECK(expectValue(fromHex).secretKey.equals(keypair));
}

TEST_CASE("key files: a loose mode is fixed to 0600 and reported") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  auto keyPath = dir.path() / "fips.key";
  crypto::SecretKey keypair = generateSecretKey(ctx);
  REQUIRE_FALSE(writeKeyFile(keyPath, keypair));
  REQUIRE(::chmod(keyPath.c_str(), 0644) == 0);
  auto loaded = readKeyFile(ctx, keyPath);
  LoadedKey& key = expectValue(loaded);
  CHECK(key.secretKey.equals(keypair));
  REQUIRE(key.warning.has_value());
  CHECK(contains(*key.warning, "0644"));
  CHECK(contains(*key.warning, "0600"));
  CHECK(fileMode(keyPath) == 0600);
}

TEST_CASE("key files: a symlink is refused for reading and for writing") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  crypto::SecretKey keypair = generateSecretKey(ctx);
  auto target = dir.path() / "real.key";
  auto link = dir.path() / "fips.key";
  REQUIRE_FALSE(writeKeyFile(target, keypair));
  std::filesystem::create_symlink(target, link);
  std::string readErr = expectError(readKeyFile(ctx, link));
  CHECK(contains(readErr, "symlink"));
  auto writeErr = writeKeyFile(link, keypair);
  REQUIRE(writeErr.has_value());
  CHECK(contains(*writeErr, "symlink"));
  CHECK(std::filesystem::is_symlink(link));
  auto dangling = dir.path() / "dangling.key";
  std::filesystem::create_symlink(dir.path() / "nowhere", dangling);
  CHECK(contains(expectError(readKeyFile(ctx, dangling)), "symlink"));
}

TEST_CASE("key files: a file owned by another user is refused") {
  if (::geteuid() != 0) {
    MESSAGE("skipped: chowning a file to another uid needs root");
    return;
  }
  crypto::Secp256k1Context ctx;
  TempDir dir;
  auto keyPath = dir.path() / "fips.key";
  REQUIRE_FALSE(writeKeyFile(keyPath, generateSecretKey(ctx)));
  REQUIRE(::chown(keyPath.c_str(), 65534, 65534) == 0);
  std::string err = expectError(readKeyFile(ctx, keyPath));
  CHECK(contains(err, "owned by uid 65534"));
  CHECK(contains(err, keyPath.string()));
}

TEST_CASE("key files: empty, garbage, oversized, missing and non-regular files fail clearly") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  auto path = dir.path() / "fips.key";
  writeText(path, " \n");
  CHECK(contains(expectError(readKeyFile(ctx, path)), "is empty"));
  writeText(path, "nsec1garbage\n");
  std::string garbage = expectError(readKeyFile(ctx, path));
  CHECK(contains(garbage, path.string()));
  CHECK(contains(garbage, "invalid bech32 character"));
  writeText(path, std::string(5000, 'a'));
  CHECK(contains(expectError(readKeyFile(ctx, path)), "larger than 4096"));
  CHECK(contains(expectError(readKeyFile(ctx, dir.path() / "absent.key")), "No such file"));
  CHECK(contains(expectError(readKeyFile(ctx, dir.path())), "not a regular file"));
}

TEST_CASE("key files: write failures leave nothing behind") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  crypto::SecretKey keypair = generateSecretKey(ctx);
  auto missing = writeKeyFile(dir.path() / "absent" / "fips.key", keypair);
  REQUIRE(missing.has_value());
  CHECK(contains(*missing, "absent"));
  std::filesystem::create_directory(dir.path() / "fips.key");
  auto ontoDir = writeKeyFile(dir.path() / "fips.key", keypair);
  REQUIRE(ontoDir.has_value());
  CHECK(entryCount(dir.path()) == 1);
}

}  // namespace
}  // namespace fips::identity
