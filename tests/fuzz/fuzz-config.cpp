// SPDX-License-Identifier: MIT
// libFuzzer target for the fips.yaml loader: any bytes go through
// loadString() and, when they load, through toYaml() and back. Runs only in
// fuzz builds (clang, -fsanitize=fuzzer); the input is fully hostile. The
// only exception the loader may throw is ConfigError; anything else escapes
// and is reported as a crash, as is a printed config that does not reload.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "privsep/config/config-loader.h"
#include "privsep/config/config-yaml-writer.h"

namespace {

// toYaml leaves the nsec out, so the reloaded config lacks it.
void checkRoundTrip(const fips::privsep::config::Config& config) {
  using fips::privsep::config::Config;
  Config expected = config;
  expected.node.identity.nsec.reset();
  for (auto& [name, tor] : expected.transports.tor) {
    if (tor.controlAuth.starts_with("password:")) tor.controlAuth = "cookie";
  }
  const Config reloaded = fips::privsep::config::loadString(toYaml(config), "printed").config;
  // NaN floats compare unequal to themselves; only require equal printing then.
  if (!(reloaded == expected) && toYaml(reloaded) != toYaml(expected)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    checkRoundTrip(fips::privsep::config::loadString(text, "fuzz.yaml").config);
  } catch (const fips::privsep::config::ConfigError&) {
    // Rejected input: the expected outcome for most of it.
  }
  return 0;
}
