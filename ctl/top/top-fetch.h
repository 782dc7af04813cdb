// SPDX-License-Identifier: MIT
// fipstop's poller: asks the router's control service (control.capnp, via
// ctl's ControlClient) for every answer the tabs show, copies them into a
// fresh Answers message, and fetches the node's stats history for the
// window the screen shows. A daemon that cannot be
// reached is not fatal (the reference's behaviour): the reason is kept as
// one line, the last answers stay on screen, and the next poll reconnects.
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

  // Polls the daemon at `nowUnixMs` (wall clock), with the node history
  // of `window`, updating `data`; never throws for daemon or socket errors.
  void poll(TopData& data, uint64_t nowUnixMs, const HistoryWindow& window);

 private:
  std::unique_ptr<Answers> query();
  void queryHistory(NodeHistory& history, const HistoryWindow& window);

  std::string path_;
  std::unique_ptr<ControlClient> client_;
};

}  // namespace fips::ctl::top
