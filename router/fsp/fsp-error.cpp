// SPDX-License-Identifier: MIT
// Names of the FSP drop reasons. Runs in fips-router.
#include "router/fsp/fsp-error.h"

namespace fips::router::fsp {

const char* toString(FspError error) {
  switch (error) {
    case FspError::SHORT:
      return "short";
    case FspError::LONG:
      return "long";
    case FspError::BAD_VERSION:
      return "bad_version";
    case FspError::BAD_PHASE:
      return "bad_phase";
    case FspError::BAD_FLAGS:
      return "bad_flags";
    case FspError::BAD_LENGTH:
      return "bad_length";
    case FspError::BAD_COUNT:
      return "bad_count";
    case FspError::BAD_HANDSHAKE_LEN:
      return "bad_handshake_len";
    case FspError::UNKNOWN_TYPE:
      return "unknown_type";
  }
  return "unknown";
}

}  // namespace fips::router::fsp
