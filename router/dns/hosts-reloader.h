// SPDX-License-Identifier: MIT
// HostsReloader: the effective alias map (peer aliases, then the hosts file
// winning) and the hosts file's modification stamp; rebuilt when the stamp
// changes (file created, modified, replaced or removed), as the reference's
// HostMapReloader does on every DNS request (spec 05 §5). The file system is
// injected (HostsFileSource). Runs in fips-router: one reloader serves the
// DNS responder, the control commands and display names (checked per DNS
// query and once per tick); each map it builds is immutable, so the control
// thread can hold one (current()) while a reload publishes the next.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/dns/host-map.h"

namespace fips::router::dns {

// What tells a changed hosts file: its modification time (seconds and
// nanoseconds since the epoch), and its device, inode and size (bytes), so
// a file renamed over it with the same mtime (`mv` of a copy) counts too.
struct FileStamp {
  int64_t sec = 0;
  int64_t nsec = 0;
  uint64_t dev = 0;
  uint64_t ino = 0;
  int64_t size = 0;

  bool operator==(const FileStamp&) const = default;
};

// What a read of the hosts file gave: the text, or why it could not be read
// (nullopt text and an empty reason when the file does not exist).
struct HostsFileRead {
  std::optional<std::string> text;
  std::string error;
};

// The file system as the reloader sees it.
class HostsFileSource {
 public:
  virtual ~HostsFileSource() = default;
  // The modification stamp; nullopt if the file does not exist or cannot be
  // inspected.
  virtual std::optional<FileStamp> stamp(const std::string& path) = 0;
  virtual HostsFileRead read(const std::string& path) = 0;
};

// Reads with stat(2), open(2) (O_RDONLY) and read(2); files over 1 MiB are
// refused (error "larger than 1 MiB").
class PosixHostsFileSource final : public HostsFileSource {
 public:
  std::optional<FileStamp> stamp(const std::string& path) override;
  HostsFileRead read(const std::string& path) override;
};

class HostsReloader {
 public:
  // Logs one line per warning, info lines on loads; the caller picks the sink.
  using LogFn = std::function<void(bool warning, const std::string& line)>;

  // Loads the file once. `source` and `log` must outlive the reloader.
  HostsReloader(HostMap base, std::string path, HostsFileSource& source, LogFn log);

  // Stats the file; if its stamp differs from the last one seen, rebuilds the
  // map (base + file) and returns true.
  bool checkReload();

  const HostMap& hosts() const { return *effective_; }
  // The map now in force, never null; a reload replaces it and leaves
  // this one unchanged for whoever holds it.
  std::shared_ptr<const HostMap> current() const { return effective_; }
  const std::string& path() const { return path_; }

 private:
  void load();

  HostMap base_;
  std::shared_ptr<const HostMap> effective_;
  std::string path_;
  HostsFileSource& source_;
  LogFn log_;
  std::optional<FileStamp> stamp_;
};

}  // namespace fips::router::dns
