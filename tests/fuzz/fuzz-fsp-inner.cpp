// SPDX-License-Identifier: MIT
// libFuzzer target: a decrypted FSP inner plaintext through the inner header
// and the session message body decoders: Data ports, PathMtuNotification and
// the session Sender/ReceiverReports (FIPS spec 04 §3.1, §3.3). Checks
// decode → encode → decode consistency. Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/fsp/session-messages.h"

namespace {

using namespace fips::router::fsp;

template <typename A, typename B>
void requireSame(const A& a, const B& b) {
  if (!std::equal(a.begin(), a.end(), b.begin(), b.end())) __builtin_trap();
}

void checkBody(SessionMessageType type, std::span<const uint8_t> body) {
  switch (type) {
    case SessionMessageType::DATA: {
      const auto d = decodeDataBody(body);
      if (!d.ok()) return;
      requireSame(encodeDataPorts(d->srcPort, d->dstPort), body.first(DATA_PORTS_SIZE));
      break;
    }
    case SessionMessageType::SENDER_REPORT: {
      const auto r = decodeSessionSenderReport(body);
      if (!r.ok()) return;
      if (!(decodeSessionSenderReport(encodeSessionSenderReport(r.value())).value() == r.value())) {
        __builtin_trap();
      }
      break;
    }
    case SessionMessageType::RECEIVER_REPORT: {
      const auto r = decodeSessionReceiverReport(body);
      if (!r.ok()) return;
      if (!(decodeSessionReceiverReport(encodeSessionReceiverReport(r.value())).value() ==
            r.value())) {
        __builtin_trap();
      }
      break;
    }
    case SessionMessageType::PATH_MTU_NOTIFICATION: {
      const auto mtu = decodePathMtuNotification(body);
      if (mtu.ok()) requireSame(encodePathMtuNotification(mtu.value()), body.first(2));
      break;
    }
    case SessionMessageType::COORDS_WARMUP:
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> plaintext(data, size);
  const auto inner = decodeInnerPlaintext(plaintext);
  if (!inner.ok()) return 0;
  requireSame(encodeInnerPlaintext(inner->header, inner->body), plaintext);
  const auto type = sessionMessageType(inner->header.msgType);
  if (type) checkBody(*type, inner->body);
  return 0;
}
