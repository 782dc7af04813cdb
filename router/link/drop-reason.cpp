// SPDX-License-Identifier: MIT
// Names of the link engine's drop reasons (see drop-reason.h). Runs in
// fips-router.
#include "router/link/drop-reason.h"

namespace fips::router::link {

const char* toString(DropReason reason) {
  switch (reason) {
    case DropReason::SHORT:
      return "short";
    case DropReason::LONG:
      return "long";
    case DropReason::BAD_VERSION:
      return "bad_version";
    case DropReason::BAD_PHASE:
      return "bad_phase";
    case DropReason::BAD_PAYLOAD_LEN:
      return "bad_payload_len";
    case DropReason::BAD_FLAGS:
      return "bad_flags";
    case DropReason::UNKNOWN_INDEX:
      return "unknown_index";
    case DropReason::UNMATCHED_MSG2:
      return "unmatched_msg2";
    case DropReason::RATE_LIMITED:
      return "rate_limited";
    case DropReason::AT_MAX_PEERS:
      return "at_max_peers";
    case DropReason::AT_MAX_LINKS:
      return "at_max_links";
    case DropReason::HANDSHAKE_FAILED:
      return "handshake_failed";
    case DropReason::SELF_CONNECTION:
      return "self_connection";
    case DropReason::REKEY_REFUSED:
      return "rekey_refused";
    case DropReason::DECRYPT_FAILED:
      return "decrypt_failed";
    case DropReason::REPLAY:
      return "replay";
    case DropReason::BAD_COUNTER:
      return "bad_counter";
    case DropReason::BAD_INNER:
      return "bad_inner";
    case DropReason::UNKNOWN_MESSAGE_TYPE:
      return "unknown_message_type";
    case DropReason::BAD_LINK_MESSAGE:
      return "bad_link_message";
    case DropReason::HANDSHAKE_PENDING:
      return "handshake_pending";
    case DropReason::MSG1_SOURCE_LIMITED:
      return "msg1_source_limited";
    case DropReason::MSG1_PREFIX_LIMITED:
      return "msg1_prefix_limited";
    case DropReason::MSG1_GLOBAL_LIMITED:
      return "msg1_global_limited";
  }
  return "unknown";
}

DropReason dropReasonFor(fmp::FmpError error) {
  switch (error) {
    case fmp::FmpError::SHORT:
      return DropReason::SHORT;
    case fmp::FmpError::LONG:
      return DropReason::LONG;
    case fmp::FmpError::BAD_VERSION:
      return DropReason::BAD_VERSION;
    case fmp::FmpError::BAD_PHASE:
      return DropReason::BAD_PHASE;
    case fmp::FmpError::BAD_LENGTH:
      return DropReason::BAD_PAYLOAD_LEN;
    case fmp::FmpError::BAD_FLAGS:
      return DropReason::BAD_FLAGS;
    case fmp::FmpError::UNKNOWN_TYPE:
      return DropReason::UNKNOWN_MESSAGE_TYPE;
    default:
      return DropReason::BAD_LINK_MESSAGE;  // framing of a known link message
  }
}

DropReason dropReasonFor(noise::OpenStatus status) {
  switch (status) {
    case noise::OpenStatus::DUPLICATE:
    case noise::OpenStatus::TOO_OLD:
      return DropReason::REPLAY;
    case noise::OpenStatus::BAD_COUNTER:
      return DropReason::BAD_COUNTER;
    default:
      return DropReason::DECRYPT_FAILED;
  }
}

}  // namespace fips::router::link
