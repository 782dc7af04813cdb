// SPDX-License-Identifier: MIT
// One JSON-line request (see session.h).
//
// Pipeline: read into a RequestLine until '\n' or end of stream (a line
// over MAX_REQUEST_BYTES is read to its end without being kept; all within
// JSON_IO_TIMEOUT) -> parse -> dispatch: a
// read query is answered from the latest snapshot at once; connect and
// disconnect wait for the data plane over the CommandBridge (at most
// JSON_IO_TIMEOUT); probe_poll and probe_cancel are answered by the
// ProbeRunner at once, probe_start once its first call is (at most
// JSON_IO_TIMEOUT) -> write the response line (JSON_IO_TIMEOUT) -> shut
// the write side down. The session's buffers live on the heap, attached to
// the returned promise.
#include "router/control/jsonline/session.h"

#include <array>
#include <cstring>

#include <kj/debug.h>

#include "router/control/json/line.h"
#include "router/control/jsonline/dispatch.h"

namespace fips::router::control {

namespace {

struct Session {
  Session(kj::AsyncIoStream& s, kj::Timer& t, const SnapshotCell& cell,
          const stats::StatsHistory& h, CommandBridge& b, ProbeRunner& p)
      : stream(s), timer(t), snapshots(cell), history(h), bridge(b), probes(p) {}

  kj::AsyncIoStream& stream;
  kj::Timer& timer;
  const SnapshotCell& snapshots;
  const stats::StatsHistory& history;
  CommandBridge& bridge;
  ProbeRunner& probes;
  RequestLine request;
  std::array<char, 4096> scratch{};  // where the rest of a too-large line goes
  std::string response;
};

// Reads until the line is complete or the stream ends. A line found too
// large is read on to its end and discarded (within the same deadline), so
// that a client still writing it gets the error line instead of a broken
// pipe; nothing of it is kept.
kj::Promise<void> readRequest(Session& s) {
  if (s.request.ended()) return kj::READY_NOW;
  const bool draining = s.request.state() == RequestLine::State::TOO_LARGE;
  char* into = draining ? s.scratch.data() : s.request.space();
  const size_t room = draining ? s.scratch.size() : s.request.room();
  return s.stream.tryRead(into, 1, room).then([&s, draining](size_t bytes) -> kj::Promise<void> {
    if (bytes == 0) return kj::READY_NOW;
    if (draining) {
      if (std::memchr(s.scratch.data(), '\n', bytes) != nullptr) return kj::READY_NOW;
    } else {
      s.request.received(bytes);
    }
    return readRequest(s);
  });
}

kj::Promise<Json> answerProbe(Session& s, const ProbeRequest& request) {
  switch (request.kind) {
    case ProbeRequest::Kind::POLL:
      return s.probes.poll(request.id);
    case ProbeRequest::Kind::CANCEL:
      return s.probes.cancel(request.id);
    case ProbeRequest::Kind::START:
      break;
  }
  // Rejected when the job was cancelled, or its driver failed, before
  // the first answer.
  return s.probes.start(request.npub).catch_([](kj::Exception&&) {
    return errorResponse("probe ended before it started");
  });
}

kj::Promise<Json> answer(Session& s) {
  if (s.request.state() == RequestLine::State::TOO_LARGE) {
    return errorResponse("read error: request too large");
  }
  auto parsed = parseRequest(s.request.line());
  if (parsed.index() == 1) return errorResponse(std::get<1>(std::move(parsed)));
  Dispatch dispatched =
      dispatchRequest(std::get<0>(parsed), s.snapshots.latest(), s.history, *s.snapshots.names());
  if (auto* now = std::get_if<Json>(&dispatched)) return std::move(*now);
  if (auto* probe = std::get_if<ProbeRequest>(&dispatched)) return answerProbe(s, *probe);
  BridgeRequest command = std::get<BridgeRequest>(std::move(dispatched));
  auto outcome =
      s.bridge.send([command](schema::ControlCommand::Builder out) { fillCommand(command, out); });
  return s.timer.timeoutAfter(JSON_IO_TIMEOUT, kj::mv(outcome))
      .then([command](CommandOutcome done) { return bridgeResponse(command, done); },
            [](kj::Exception&&) { return errorResponse("query timeout"); });
}

}  // namespace

bool startsJsonLine(kj::byte byte) {
  return byte >= 0x20 || byte == '\t' || byte == '\r' || byte == '\n';
}

kj::Promise<void> serveJsonLine(kj::AsyncIoStream& stream, kj::Timer& timer, kj::byte first,
                                const SnapshotCell& snapshots, const stats::StatsHistory& history,
                                CommandBridge& bridge, ProbeRunner& probes) {
  auto session = kj::heap<Session>(stream, timer, snapshots, history, bridge, probes);
  Session& s = *session;
  *s.request.space() = static_cast<char>(first);
  s.request.received(1);
  auto read = s.timer.timeoutAfter(JSON_IO_TIMEOUT, readRequest(s));
  return read
      .then([&s]() { return answer(s); },
            [&s](kj::Exception&& e) -> kj::Promise<Json> {
              if (s.request.state() == RequestLine::State::TOO_LARGE) {
                return errorResponse("read error: request too large");
              }
              if (e.getType() == kj::Exception::Type::OVERLOADED) {
                return errorResponse("read timeout");
              }
              return errorResponse(std::string("read error: ") + e.getDescription().cStr());
            })
      .then([&s](Json response) {
        s.response = responseLine(response);
        return s.timer.timeoutAfter(JSON_IO_TIMEOUT,
                                    s.stream.write(s.response.data(), s.response.size()));
      })
      .then([&s]() { s.stream.shutdownWrite(); }, [](kj::Exception&&) {})
      .attach(kj::mv(session));
}

kj::Promise<void> refuseJsonLine(kj::AsyncIoStream& stream, kj::Timer& timer) {
  auto line = kj::heap<std::string>(responseLine(errorResponse(
      "the JSON-line protocol is off on this socket: set node.control.json_compat: true in "
      "the node's config (or use fipsctl)")));
  auto written = stream.write(line->data(), line->size());
  return timer.timeoutAfter(JSON_IO_TIMEOUT, kj::mv(written))
      .then([&stream]() { stream.shutdownWrite(); }, [](kj::Exception&&) {})
      .attach(kj::mv(line));
}

}  // namespace fips::router::control
