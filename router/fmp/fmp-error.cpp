// SPDX-License-Identifier: MIT
// Names of the FMP drop reasons. Runs in fips-router; no input parsing here.
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

const char* toString(FmpError error) {
  switch (error) {
    case FmpError::SHORT:
      return "short";
    case FmpError::LONG:
      return "long";
    case FmpError::BAD_VERSION:
      return "bad_version";
    case FmpError::BAD_PHASE:
      return "bad_phase";
    case FmpError::BAD_LENGTH:
      return "bad_length";
    case FmpError::BAD_FLAGS:
      return "bad_flags";
    case FmpError::UNKNOWN_TYPE:
      return "unknown_type";
    case FmpError::BAD_COUNT:
      return "bad_count";
    case FmpError::BAD_SIZE_CLASS:
      return "bad_size_class";
    case FmpError::BAD_HASH_COUNT:
      return "bad_hash_count";
  }
  return "unknown";
}

}  // namespace fips::router::fmp
