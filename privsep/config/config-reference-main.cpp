// SPDX-License-Identifier: MIT
// fips-config-reference: prints every fips.yaml key with its default and
// doc string, from the field tables (the body of docs/reference/config.md,
// written by scripts/gen-config-reference.sh). A build tool, not installed;
// reads no input.
#include <iostream>

#include "privsep/config/config-yaml-writer.h"

int main() {
  std::cout << fips::privsep::config::referenceYaml() << std::flush;
  return 0;
}
