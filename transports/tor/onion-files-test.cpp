// SPDX-License-Identifier: MIT
#include "transports/tor/onion-files.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include <doctest/doctest.h>

using namespace fips::transport::tor;

namespace {

const std::string KEY = "ED25519-V3:" + std::string(86, 'A') + "==";

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "onion-key-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

void writeFile(const std::filesystem::path& p, const std::string& text, mode_t mode) {
  std::ofstream(p) << text;
  ::chmod(p.c_str(), mode);
}

}  // namespace

TEST_CASE("onion key: format check") {
  CHECK(isOnionKey(KEY));
  CHECK_FALSE(isOnionKey("ED25519-V3:" + std::string(88, 'A')));
  CHECK_FALSE(isOnionKey("RSA1024:" + std::string(86, 'A') + "=="));
  CHECK_FALSE(isOnionKey("ED25519-V3:" + std::string(85, 'A') + "!=="));
  CHECK_FALSE(isOnionKey(KEY + "A"));
}

TEST_CASE("onion key: saved at mode 0600 and read back; no file is no error") {
  TempDir dir;
  const auto path = dir.path / ONION_KEY_FILE;
  auto none = loadOnionKey(path);
  CHECK_FALSE(none.key);
  CHECK(none.error.empty());
  CHECK(saveOnionKey(path, KEY).empty());
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  auto loaded = loadOnionKey(path);
  CHECK(loaded.key == KEY);
  CHECK_FALSE(loaded.tooOpen);
  CHECK_FALSE(std::filesystem::exists(path.string() + ".new"));
  // A second save replaces the file whole.
  const std::string other = "ED25519-V3:" + std::string(86, 'B') + "==";
  CHECK(saveOnionKey(path, other).empty());
  CHECK(loadOnionKey(path).key == other);
}

TEST_CASE("onion key: a bad or open file is reported, never replaced") {
  TempDir dir;
  const auto path = dir.path / ONION_KEY_FILE;
  writeFile(path, KEY + "\n", 0644);
  auto open = loadOnionKey(path);
  CHECK(open.key == KEY);
  CHECK(open.tooOpen);
  writeFile(path, "garbage\n", 0600);
  auto bad = loadOnionKey(path);
  CHECK_FALSE(bad.key);
  CHECK(bad.error == path.string() + " does not hold an ED25519-V3 onion key");
  std::filesystem::remove(path);
  std::filesystem::create_directory(path);
  CHECK(loadOnionKey(path).error == path.string() + " is not a regular file");
  CHECK(saveOnionKey(dir.path / "k", "not a key") == "not an ED25519-V3 onion key");
  CHECK(checkOnionKeyWritable(dir.path / "k").empty());
  CHECK_FALSE(std::filesystem::exists(dir.path / "k.new"));
  CHECK(checkOnionKeyWritable(dir.path / "missing" / "k").starts_with("cannot create "));
}

TEST_CASE("onion hostname file: tor's one line, or why not") {
  TempDir dir;
  const auto path = dir.path / "hostname";
  const std::string onion = "abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuvwx.onion";
  CHECK(loadOnionHostname(path).error.starts_with("cannot open "));
  writeFile(path, onion + "\n", 0600);
  CHECK(loadOnionHostname(path).hostname == onion);
  writeFile(path, "facebookcorewwwi.onion\n", 0600);
  CHECK(loadOnionHostname(path).error == path.string() + " does not hold an onion v3 hostname");
}
