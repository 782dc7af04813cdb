// SPDX-License-Identifier: MIT
// fipstop's poller: asks the router's control service (control.capnp, via
// ctl's ControlClient) for every answer the tabs show, copies them into a
// fresh Answers message, and fetches the stats history the screen shows
// (the node's, one per-peer metric of every tracked peer, or one peer's
// metrics); sends the one command fipstop has, disconnect. A daemon that
// cannot be reached is not fatal (the reference's behaviour): the reason
// is kept as one line, the last answers stay on screen, and the next poll
// reconnects.
// Runs in fipstop as the invoking user.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ctl/control-client.h"
#include "ctl/top/top-data.h"

namespace fips::ctl::top {

class TopFetcher {
 public:
  explicit TopFetcher(std::string socketPath) : path_(std::move(socketPath)) {}

  // Polls the daemon at `nowUnixMs` (wall clock), with the history
  // `history` asks for, updating `data`; never throws for daemon or socket
  // errors.
  void poll(TopData& data, uint64_t nowUnixMs, const HistoryQuery& history);

  // Asks the daemon to disconnect `npub` (the control service's
  // disconnect); returns the outcome as one line for the status bar.
  std::string disconnect(const std::string& npub, const std::string& name);

 private:
  std::unique_ptr<Answers> query();
  void queryHistory(TopData& data, const HistoryQuery& history);
  void queryGraphPeers(TopData& data);
  void queryByPeer(TopData& data, const HistoryQuery& history);
  // statsAllHistory of the node (peer nullptr) or of `peer` into data.history.
  void queryAllHistory(TopData& data, const GraphPeer* peer, const HistoryWindow& window);

  std::string path_;
  std::unique_ptr<ControlClient> client_;
};

}  // namespace fips::ctl::top
