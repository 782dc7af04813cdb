// SPDX-License-Identifier: MIT
// HostsReloader and the POSIX file source (see hosts-reloader.h).
#include "router/dns/hosts-reloader.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "lib/unique-fd.h"

namespace fips::router::dns {

namespace {

constexpr size_t MAX_HOSTS_FILE = 1 << 20;  // bytes

}  // namespace

std::optional<FileStamp> PosixHostsFileSource::stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileStamp{st.st_mtim.tv_sec, st.st_mtim.tv_nsec, static_cast<uint64_t>(st.st_dev),
                   static_cast<uint64_t>(st.st_ino), static_cast<int64_t>(st.st_size)};
}

HostsFileRead PosixHostsFileSource::read(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    if (errno == ENOENT) return {};
    return {std::nullopt, std::strerror(errno)};
  }
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return {std::nullopt, std::strerror(errno)};
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > MAX_HOSTS_FILE) return {std::nullopt, "larger than 1 MiB"};
  }
  return {std::move(text), {}};
}

HostsReloader::HostsReloader(HostMap base, std::string path, HostsFileSource& source, LogFn log)
    : base_(std::move(base)), path_(std::move(path)), source_(source), log_(std::move(log)) {
  stamp_ = source_.stamp(path_);
  load();
}

bool HostsReloader::checkReload() {
  auto now = source_.stamp(path_);
  if (now == stamp_) return false;
  stamp_ = now;
  load();
  log_(false, fmt::format("reloaded hosts file {}: {} entries", path_, effective_->size()));
  return true;
}

void HostsReloader::load() {
  HostMap map = base_;
  auto read = source_.read(path_);
  if (read.text) {
    std::vector<std::string> warnings;
    HostMap file = parseHostsFile(*read.text, path_, warnings);
    for (const auto& w : warnings) log_(true, w);
    map.merge(file);
  } else if (!read.error.empty()) {
    log_(true, fmt::format("cannot read hosts file {}: {}", path_, read.error));
  }
  effective_ = std::make_shared<const HostMap>(std::move(map));
}

}  // namespace fips::router::dns
