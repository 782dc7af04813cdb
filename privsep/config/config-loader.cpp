// SPDX-License-Identifier: MIT
// Loading fips.yaml: reading files, YAML parsing, the search path and its
// merge, then validation. Runs in the fips supervisor (root, at startup and on
// SIGHUP) and in fipsctl. Files are operator-owned but may be anything (empty,
// binary, a directory); every yaml-cpp exception is caught here and becomes
// a one-line ConfigError.
#include "privsep/config/config-loader.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <pwd.h>
#include <set>
#include <sstream>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "privsep/config/config-merge.h"
#include "privsep/config/config-parse.h"
#include "privsep/config/config-validate.h"
#include "privsep/config/secret-file-mode.h"

namespace fips::privsep::config {

namespace {

constexpr std::size_t MAX_CONFIG_BYTES = 1024 * 1024;
constexpr const char* SYSTEM_CONFIG_DIR = "/etc/fips";
constexpr const char* CONFIG_FILENAME = "fips.yaml";
constexpr std::size_t PASSWD_BUFFER_BYTES = 16384;

// One file's typed config, with the parser's errors (a file with errors
// still yields a config, so later checks can report more in the same run).
struct ParsedFile {
  Config config;
  Origins origins;
  std::vector<std::string> errors;
  std::set<std::string> errorPaths;
};

constexpr const char* TOR_PASSWORD_PREFIX = "password:";

// Wipes a buffer that may hold node.identity.nsec. Known gap: yaml-cpp's own
// node strings and the ifstream buffer keep copies we cannot reach.
struct WipeOnExit {
  std::string& text;
  ~WipeOnExit() { explicit_bzero(text.data(), text.size()); }
};

[[noreturn]] void fail(std::string message) {
  throw ConfigError({std::move(message)});
}

// Whole file as text; "FILE: reason" errors for everything but a regular file.
std::string readConfigFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(fmt::format("{}: {}", path, strerror(errno)));
  if (S_ISDIR(st.st_mode)) fail(fmt::format("{}: is a directory, not a YAML file", path));
  if (!S_ISREG(st.st_mode)) fail(fmt::format("{}: is not a regular file", path));
  if (static_cast<std::uint64_t>(st.st_size) > MAX_CONFIG_BYTES) {
    fail(fmt::format("{}: is larger than {} bytes", path, MAX_CONFIG_BYTES));
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fail(fmt::format("{}: cannot be read: {}", path, errno != 0 ? strerror(errno) : "open failed"));
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(fmt::format("{}: read failed", path));
  return text;
}

// Discards parse events; only used to count documents.
class NullHandler : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// The first document of `text`, refusing text that holds more than one.
// Documents are counted with a cap rather than by YAML::LoadAll, which
// never returns on some malformed input in yaml-cpp 0.7 (found by fuzzing).
YAML::Node loadDocument(const std::string& text, const std::string& name) {
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    NullHandler ignore;
    int documents = 0;
    while (documents < 2 && parser.HandleNextDocument(ignore)) ++documents;
    if (documents > 1) fail(fmt::format("{}: holds more than one YAML document", name));
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    fail(fmt::format("{}: not valid YAML: {} (line {}, column {})", name, e.msg, e.mark.line + 1,
                     e.mark.column + 1));
  } catch (const YAML::Exception& e) {
    fail(fmt::format("{}: not valid YAML: {}", name, e.msg));
  }
}

// One file's text to a typed config. File-level failures (not YAML, empty,
// not a map) throw ConfigError; bad keys and values are in `errors`.
ParsedFile parseText(const std::string& text, const std::string& name,
                     std::vector<std::string>& warnings) {
  const YAML::Node root = loadDocument(text, name);
  if (root.IsNull()) fail(fmt::format("{}: is empty (no settings)", name));
  if (!root.IsMap()) {
    fail(fmt::format("{}: the top level is {}, expected a map of settings", name, describe(root)));
  }
  ParseContext ctx(name);
  ParsedFile parsed;
  try {
    parsed.config = parseDocument(ctx, root);
  } catch (const YAML::Exception& e) {
    fail(fmt::format("{}: unreadable YAML structure: {}", name, e.msg));
  }
  warnings.insert(warnings.end(), ctx.warnings().begin(), ctx.warnings().end());
  parsed.errors = std::move(ctx.errors());
  parsed.errorPaths = ctx.errorPaths();
  parsed.origins = std::move(ctx.origins());
  return parsed;
}

ParsedFile parseFile(const std::string& path, std::vector<std::string>& warnings) {
  std::string text = readConfigFile(path);
  WipeOnExit wipe{text};
  ParsedFile parsed = parseText(text, path, warnings);
  if (parsed.config.node.identity.nsec) {
    if (auto loose = looseSecretFileWarning(path, "node.identity.nsec")) {
      warnings.push_back(std::move(*loose));
    }
  }
  return parsed;
}

// The line of "FILE:LINE: ..." when the message starts with `file`, else 0.
int lineIn(const std::string& message, const std::string& file) {
  if (!message.starts_with(file + ":")) return 0;
  const std::string_view rest = std::string_view(message).substr(file.size() + 1);
  int line = 0;
  std::from_chars(rest.data(), rest.data() + rest.size(), line);
  return line;
}

// Orders messages by file (in `files` order; others last) then line, so a
// reader goes down the file once; equal places keep their order.
void sortByPlace(std::vector<std::string>& messages, const std::vector<std::string>& files) {
  using Place = std::pair<std::size_t, int>;  // (index in files, line)
  std::vector<std::pair<Place, std::string>> placed;
  placed.reserve(messages.size());
  for (std::string& message : messages) {
    Place place{files.size(), 0};
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (message.starts_with(files[i] + ":")) {
        place = {i, lineIn(message, files[i])};
        break;
      }
    }
    placed.emplace_back(place, std::move(message));
  }
  std::stable_sort(placed.begin(), placed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < placed.size(); ++i) messages[i] = std::move(placed[i].second);
}

// Validates, then throws every error of the load in file order, if any.
void validateAndFinish(const Config& config, const Origins& origins, const std::string& file,
                       const std::set<std::string>& errorPaths, const BuildSupport* build,
                       std::vector<std::string>& errors, LoadResult& result,
                       const std::vector<std::string>& files) {
  validateConfig(config, origins, file, errorPaths, build, errors, result.warnings);
  sortByPlace(result.warnings, files);
  sortByPlace(errors, files);
  if (!errors.empty()) throw ConfigError(std::move(errors), result.warnings);
}

std::string directoryOf(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

bool exists(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return true;
  if (errno == ENOENT || errno == ENOTDIR) return false;
  fail(fmt::format("{}: {}", path, strerror(errno)));
}

std::optional<std::string> env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

std::optional<std::string> homeFromPasswd() {
  passwd pw{};
  passwd* found = nullptr;
  std::vector<char> buffer(PASSWD_BUFFER_BYTES);
  if (getpwuid_r(getuid(), &pw, buffer.data(), buffer.size(), &found) != 0 || found == nullptr ||
      pw.pw_dir == nullptr || *pw.pw_dir == '\0') {
    return std::nullopt;
  }
  return std::string(pw.pw_dir);
}

}  // namespace

ConfigError::ConfigError(std::vector<std::string> messages, std::vector<std::string> warnings)
    : std::runtime_error(fmt::format("{}", fmt::join(messages, "\n"))),
      messages_(std::move(messages)),
      warnings_(std::move(warnings)) {}

SearchEnv searchEnvFromProcess() {
  SearchEnv out;
  out.home = env("HOME");
  if (!out.home) out.home = homeFromPasswd();
  out.xdgConfigHome = env("XDG_CONFIG_HOME");
  return out;
}

std::vector<std::string> searchPaths(const SearchEnv& env) {
  std::vector<std::string> paths{fmt::format("{}/{}", SYSTEM_CONFIG_DIR, CONFIG_FILENAME)};
  if (env.xdgConfigHome && env.xdgConfigHome->starts_with("/")) {
    paths.push_back(fmt::format("{}/fips/{}", *env.xdgConfigHome, CONFIG_FILENAME));
  } else if (env.home) {
    paths.push_back(fmt::format("{}/.config/fips/{}", *env.home, CONFIG_FILENAME));
  }
  if (env.home) paths.push_back(fmt::format("{}/.fips.yaml", *env.home));
  paths.push_back(fmt::format("./{}", CONFIG_FILENAME));
  return paths;
}

LoadResult loadFile(const std::string& path, const BuildSupport* build) {
  LoadResult result;
  ParsedFile parsed = parseFile(path, result.warnings);
  validateAndFinish(parsed.config, parsed.origins, path, parsed.errorPaths, build, parsed.errors,
                    result, {path});
  result.config = std::move(parsed.config);
  result.loadedFiles.push_back(path);
  result.keyDir = directoryOf(path);
  return result;
}

LoadResult loadPaths(const std::vector<std::string>& paths, const BuildSupport* build) {
  LoadResult result;
  Origins origins;
  std::vector<std::string> errors;
  std::set<std::string> errorPaths;
  for (const std::string& path : paths) {
    if (!exists(path)) continue;
    ParsedFile parsed;
    try {
      parsed = parseFile(path, result.warnings);
    } catch (const ConfigError& e) {
      errors.insert(errors.end(), e.messages().begin(), e.messages().end());
      continue;
    }
    errors.insert(errors.end(), parsed.errors.begin(), parsed.errors.end());
    errorPaths.insert(parsed.errorPaths.begin(), parsed.errorPaths.end());
    mergeFile(result.config, origins, parsed.config, parsed.origins, result.warnings);
    result.loadedFiles.push_back(path);
  }
  const std::string last = result.loadedFiles.empty() ? "<defaults>" : result.loadedFiles.back();
  validateAndFinish(result.config, origins, last, errorPaths, build, errors, result, paths);
  result.keyDir = result.loadedFiles.empty() ? SYSTEM_CONFIG_DIR : directoryOf(last);
  return result;
}

LoadResult loadSearchPath(const BuildSupport* build) {
  return loadPaths(searchPaths(searchEnvFromProcess()), build);
}

LoadResult loadString(std::string_view yaml, const std::string& name, const BuildSupport* build) {
  LoadResult result;
  std::string text(yaml);
  WipeOnExit wipe{text};
  ParsedFile parsed = parseText(text, name, result.warnings);
  validateAndFinish(parsed.config, parsed.origins, name, parsed.errorPaths, build, parsed.errors,
                    result, {name});
  result.config = std::move(parsed.config);
  result.keyDir = SYSTEM_CONFIG_DIR;
  return result;
}

void wipeSecrets(Config& config) {
  if (config.node.identity.nsec) {
    std::string& nsec = *config.node.identity.nsec;
    explicit_bzero(nsec.data(), nsec.size());
    config.node.identity.nsec.reset();
  }
  for (auto& [name, tor] : config.transports.tor) {
    if (!tor.controlAuth.starts_with(TOR_PASSWORD_PREFIX)) continue;
    explicit_bzero(tor.controlAuth.data(), tor.controlAuth.size());
    tor.controlAuth = TOR_PASSWORD_PREFIX;
  }
}

}  // namespace fips::privsep::config
