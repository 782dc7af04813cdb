// SPDX-License-Identifier: MIT
// One JSON-line request on a control connection (spec 08 §1, the
// reference's src/control/mod.rs): read one line of at most 4096 bytes
// within 5 s, answer it with one line within 5 s, then shut the stream
// down. Runs on the control thread of fips-router; the client is any local
// user allowed by the socket's mode and group, and untrusted.
#pragma once

#include <kj/async-io.h>
#include <kj/time.h>

#include "router/control/probe/probe-runner.h"
#include "router/control/snapshot/command-bridge.h"
#include "router/control/snapshot/snapshot-cell.h"
#include "router/stats/stats-history.h"

namespace fips::router::control {

// True when `byte` starts a JSON-line client's request: any text byte
// (0x20-0xFF, so `[]` or a bare word gets a JSON error line, as from the
// reference) or JSON whitespace (tab, CR, LF). How the control socket tells
// a JSON client from a Cap'n Proto one, whose first byte is the low byte
// of its first message's segment count - 1: 0 for fipsctl's and fipstop's
// single-segment messages; a Cap'n Proto message of 9, 10, 13 or 32+
// segments would be taken for JSON (never sent by our clients).
bool startsJsonLine(kj::byte byte);

// Serves one request on `stream`, whose first byte was already read
// (`first`). Resolves once the response is written and the stream shut
// down (or the write failed). `stream`, `timer`, `snapshots`, `history`,
// `bridge` and `probes` must outlive the promise.
kj::Promise<void> serveJsonLine(kj::AsyncIoStream& stream, kj::Timer& timer, kj::byte first,
                                const SnapshotCell& snapshots, const stats::StatsHistory& history,
                                CommandBridge& bridge, ProbeRunner& probes);

// Answers a JSON client on a socket whose JSON-line protocol is off with
// one error line ("... set node.control.json_compat: true ..."), without
// reading its request, then shuts the stream down. Resolves when written
// (or after JSON_IO_TIMEOUT). `stream` and `timer` must outlive the promise.
kj::Promise<void> refuseJsonLine(kj::AsyncIoStream& stream, kj::Timer& timer);

}  // namespace fips::router::control
