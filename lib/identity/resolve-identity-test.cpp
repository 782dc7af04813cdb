// SPDX-License-Identifier: MIT
// Tests of identity resolution: explicit nsec, persistent and ephemeral
// modes, and the deliberate "persistent key cannot be written is fatal" rule.
// Test-only; uses temporary directories.
#include "lib/identity/resolve-identity.h"

#include <sys/stat.h>

#include <doctest/doctest.h>

#include "lib/identity/key-file.h"
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

TEST_CASE("resolve: an explicit nsec wins and touches no file") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  nlohmann::json vectors = test::identityVectors();
  std::string nsec = vectors["valid"][2]["nsec"];
  for (bool persistent : {false, true}) {
    auto resolved = resolveIdentity(ctx, nsec, persistent, dir.path());
    ResolvedIdentity& id = expectValue(resolved);
    CHECK(id.source == IdentitySource::CONFIG);
    CHECK(encodeNsec(id.secretKey).view() == nsec);
    CHECK(id.warnings.empty());
  }
  auto hex =
      resolveIdentity(ctx, vectors["valid"][2]["nsec_hex"].get<std::string>(), false, dir.path());
  CHECK(encodeNsec(expectValue(hex).secretKey).view() == nsec);
  CHECK(entryCount(dir.path()) == 0);
  std::string err = expectError(resolveIdentity(ctx, "nsec1bad", true, dir.path()));
  CHECK(contains(err, "node.identity.nsec"));
}

TEST_CASE("resolve: persistent generates once, then loads the same key") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  auto keyDir = dir.path() / "etc" / "fips";
  auto first = resolveIdentity(ctx, std::nullopt, true, keyDir);
  ResolvedIdentity& generated = expectValue(first);
  CHECK(generated.source == IdentitySource::GENERATED);
  CHECK(generated.keyPath == keyDir / "fips.key");
  CHECK(generated.warnings.empty());
  CHECK(fileMode(keyDir / "fips.key") == 0600);
  CHECK(fileMode(keyDir / "fips.pub") == 0644);

  std::filesystem::remove(keyDir / "fips.pub");
  auto second = resolveIdentity(ctx, std::nullopt, true, keyDir);
  ResolvedIdentity& loaded = expectValue(second);
  CHECK(loaded.source == IdentitySource::KEY_FILE);
  CHECK(loaded.secretKey.equals(generated.secretKey));
  CHECK(readText(keyDir / "fips.pub") == encodeNpub(loaded.secretKey.publicKey()) + "\n");
}

TEST_CASE("resolve: persistent reports a repaired key file mode") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  crypto::SecretKey keypair = generateSecretKey(ctx);
  REQUIRE_FALSE(writeKeyFile(dir.path() / "fips.key", keypair));
  REQUIRE(::chmod((dir.path() / "fips.key").c_str(), 0644) == 0);
  auto resolved = resolveIdentity(ctx, std::nullopt, true, dir.path());
  ResolvedIdentity& id = expectValue(resolved);
  CHECK(id.secretKey.equals(keypair));
  REQUIRE(id.warnings.size() == 1);
  CHECK(contains(id.warnings[0], "0644"));
  CHECK(fileMode(dir.path() / "fips.key") == 0600);
}

TEST_CASE("resolve: persistent fails, never falls back, when the key cannot be written") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  writeText(dir.path() / "not-a-dir", "x");
  std::string err =
      expectError(resolveIdentity(ctx, std::nullopt, true, dir.path() / "not-a-dir" / "fips"));
  CHECK(contains(err, "persistent"));
  CHECK(contains(err, "cannot"));
}

TEST_CASE("resolve: persistent fails on a broken, symlinked or foreign key file") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  writeText(dir.path() / "fips.key", "not a key\n");
  CHECK(contains(expectError(resolveIdentity(ctx, std::nullopt, true, dir.path())), "fips.key"));
  std::filesystem::remove(dir.path() / "fips.key");
  std::filesystem::create_symlink(dir.path() / "elsewhere", dir.path() / "fips.key");
  CHECK(contains(expectError(resolveIdentity(ctx, std::nullopt, true, dir.path())), "symlink"));
}

TEST_CASE("resolve: ephemeral makes a new key each time and writes no file") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  auto first = resolveIdentity(ctx, std::nullopt, false, dir.path());
  ResolvedIdentity& one = expectValue(first);
  CHECK(one.source == IdentitySource::EPHEMERAL);
  CHECK(one.warnings.empty());
  CHECK(one.keyPath.empty());
  auto second = resolveIdentity(ctx, std::nullopt, false, dir.path());
  ResolvedIdentity& two = expectValue(second);
  CHECK_FALSE(two.secretKey.equals(one.secretKey));
  CHECK(two.warnings.empty());
  CHECK(entryCount(dir.path()) == 0);
}

TEST_CASE("resolve: ephemeral never touches an existing key file, and says it is not used") {
  crypto::Secp256k1Context ctx;
  TempDir dir;
  auto saved = resolveIdentity(ctx, std::nullopt, true, dir.path());
  ResolvedIdentity& kept = expectValue(saved);
  const std::string keyBefore = readText(dir.path() / "fips.key");
  const std::string pubBefore = readText(dir.path() / "fips.pub");
  auto resolved = resolveIdentity(ctx, std::nullopt, false, dir.path());
  ResolvedIdentity& id = expectValue(resolved);
  CHECK(id.source == IdentitySource::EPHEMERAL);
  CHECK_FALSE(id.secretKey.equals(kept.secretKey));
  REQUIRE(id.warnings.size() == 1);
  CHECK(contains(id.warnings[0], (dir.path() / "fips.key").string()));
  CHECK(contains(id.warnings[0], "persistent: true"));
  CHECK(readText(dir.path() / "fips.key") == keyBefore);
  CHECK(readText(dir.path() / "fips.pub") == pubBefore);
  CHECK(fileMode(dir.path() / "fips.key") == 0600);
}

TEST_CASE("resolve: the key directory follows the last loaded config file") {
  CHECK(keyDirectoryFor({}) == "/etc/fips");
  CHECK(keyDirectoryFor({"/etc/fips/fips.yaml", "/home/u/.config/fips/fips.yaml"}) ==
        "/home/u/.config/fips");
}

}  // namespace
}  // namespace fips::identity
