// SPDX-License-Identifier: MIT
// The hosts-file reload on a changed modification stamp, with a scripted
// file source, and the POSIX source on a real file.
#include "router/dns/hosts-reloader.h"

#include <fcntl.h>
#include <filesystem>
#include <map>
#include <sys/stat.h>

#include "router/dns/dns-test-util.h"

namespace fips::router::dns {
namespace {

using test::vectorIdentity;

class FakeFiles final : public HostsFileSource {
 public:
  std::optional<FileStamp> stamp(const std::string& path) override {
    ++stats;
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second.first;
  }
  HostsFileRead read(const std::string& path) override {
    ++reads;
    auto it = files.find(path);
    if (it == files.end()) return {};
    return {it->second.second, {}};
  }
  std::map<std::string, std::pair<FileStamp, std::string>> files;
  int stats = 0;
  int reads = 0;
};

struct Log {
  std::vector<std::string> warnings;
  std::vector<std::string> infos;
  HostsReloader::LogFn fn() {
    return [this](bool warning, const std::string& line) {
      (warning ? warnings : infos).push_back(line);
    };
  }
};

TEST_CASE("reload only when the stamp changes; created, modified, removed") {
  const auto [npub0, ip0] = vectorIdentity(0);
  const auto [npub1, ip1] = vectorIdentity(1);
  FakeFiles files;
  Log log;
  std::vector<std::string> warnings;
  HostsReloader r(hostMapFromPeers({{"core", npub0}}, warnings), "/h", files, log.fn());
  CHECK(r.hosts().size() == 1);
  CHECK_FALSE(r.checkReload());

  files.files["/h"] = {{100, 1}, "gateway " + npub1 + "\n"};
  CHECK(r.checkReload());
  CHECK(r.hosts().find("gateway"));
  CHECK(r.hosts().find("core"));
  const int reads = files.reads;
  CHECK_FALSE(r.checkReload());
  CHECK(files.reads == reads);

  files.files["/h"] = {{100, 2}, "server2 " + npub1 + "\nbad line here\n"};
  CHECK(r.checkReload());
  CHECK(r.hosts().find("server2"));
  CHECK_FALSE(r.hosts().find("gateway"));
  REQUIRE(log.warnings.size() == 1);
  CHECK(identity::test::contains(log.warnings[0], "/h:2:"));

  files.files.erase("/h");
  CHECK(r.checkReload());
  CHECK(r.hosts().size() == 1);
  CHECK(r.hosts().find("core"));
}

TEST_CASE("current(): a held map stays as it was across a reload; no reload, same map") {
  const auto [npub0, ip0] = vectorIdentity(0);
  const auto [npub1, ip1] = vectorIdentity(1);
  FakeFiles files;
  Log log;
  files.files["/h"] = {{1, 0}, "gateway " + npub0 + "\n"};
  HostsReloader r(HostMap{}, "/h", files, log.fn());
  const auto held = r.current();
  CHECK_FALSE(r.checkReload());
  CHECK(r.current() == held);
  files.files["/h"] = {{2, 0}, "server2 " + npub1 + "\n"};
  CHECK(r.checkReload());
  CHECK(r.current() != held);
  CHECK(held->find("gateway"));
  CHECK_FALSE(held->find("server2"));
  CHECK(r.current()->find("server2"));
  CHECK(&r.hosts() == r.current().get());
}

TEST_CASE("POSIX source: missing file, real file, its stamp") {
  identity::test::TempDir dir;
  const std::string path = (dir.path() / "hosts").string();
  PosixHostsFileSource source;
  CHECK_FALSE(source.stamp(path));
  auto missing = source.read(path);
  CHECK_FALSE(missing.text);
  CHECK(missing.error.empty());
  identity::test::writeText(path, "a b\n");
  REQUIRE(source.stamp(path));
  auto read = source.read(path);
  REQUIRE(read.text);
  CHECK(*read.text == "a b\n");
  auto unreadable = source.read(dir.path().string());  // a directory: read fails
  CHECK_FALSE(unreadable.text);
  CHECK_FALSE(unreadable.error.empty());
}

TEST_CASE("POSIX source: a copy renamed over the file with the same mtime changes the stamp") {
  identity::test::TempDir dir;
  const std::string path = (dir.path() / "hosts").string();
  const std::string copy = (dir.path() / "hosts.new").string();
  identity::test::writeText(path, "a b\n");
  identity::test::writeText(copy, "a b\nlonger c\n");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  const timespec times[2] = {st.st_atim, st.st_mtim};
  REQUIRE(::utimensat(AT_FDCWD, copy.c_str(), times, 0) == 0);
  PosixHostsFileSource source;
  const auto before = source.stamp(path);
  REQUIRE(before);
  std::filesystem::rename(copy, path);
  const auto after = source.stamp(path);
  REQUIRE(after);
  CHECK(after->sec == before->sec);
  CHECK(after->nsec == before->nsec);
  CHECK_FALSE(*after == *before);
}

}  // namespace
}  // namespace fips::router::dns
