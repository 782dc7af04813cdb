// SPDX-License-Identifier: MIT
// The command-line checks shared by fipsctl and fipstop (cli-checks.h), on
// a CLI11 app built as the tools build theirs.
#include "ctl/cli-checks.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

namespace fips::ctl {
namespace {

// Parses `args` for an app with fipstop's -r,--refresh; the error text, or
// "" with the value in `refresh`.
std::string parseRefresh(std::vector<std::string> args, uint64_t& refresh) {
  CLI::App app("test", "fipstop");
  app.add_option("-r,--refresh", refresh)->check(refreshSeconds);
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector in reverse order
  try {
    app.parse(args);
  } catch (const CLI::ParseError& error) {
    return error.what();
  }
  return "";
}

TEST_CASE("fipstop -r: whole seconds 1 to 3600, a refusal naming -r, its unit and range") {
  uint64_t refresh = 2;
  CHECK(parseRefresh({"-r", "5"}, refresh).empty());
  CHECK(refresh == 5);
  CHECK(parseRefresh({"--refresh", "3600"}, refresh).empty());
  CHECK(refresh == 3600);
  CHECK(parseRefresh({"-r", "1"}, refresh).empty());
  CHECK(refresh == 1);
  for (const char* bad : {"abc", "0", "3601", "-1", "1.5", "5s", "", "99999999999999999999"}) {
    CAPTURE(bad);
    CHECK(parseRefresh({"-r", bad}, refresh) ==
          std::string("--refresh: '") + bad +
              "' is not a number of seconds from 1 to 3600 (-r takes whole seconds, e.g. -r 5)");
  }
}

}  // namespace
}  // namespace fips::ctl
