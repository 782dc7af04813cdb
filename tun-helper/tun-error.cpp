// SPDX-License-Identifier: MIT
// Wording of errno values in TunError messages.
// Runs in fips-tun-helper (privileged); formats kernel error codes only.
#include "tun-helper/tun-error.h"

#include <cctype>
#include <cerrno>
#include <cstring>

namespace fips::tunhelper {

std::string errnoText(int err) {
  const char* desc = strerrordesc_np(err);
  std::string text = desc != nullptr ? desc : "error " + std::to_string(err);
  if (!text.empty()) {
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  }
  if (err == EPERM) text += " (needs CAP_NET_ADMIN)";
  return text;
}

}  // namespace fips::tunhelper
