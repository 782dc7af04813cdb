// SPDX-License-Identifier: MIT
// fipstop: live-status terminal UI for a running FIPS daemon (spec 08,
// reference docs/reference/cli-fipstop.md). Polls the router's control
// service every -r seconds and draws the tabs; read-only but for Del on
// the Peers tab, which disconnects the selected peer after a Y/N
// confirmation (the reference's one mutating action). Runs as the
// invoking user. Exit status: 0 on quit (q, Ctrl-C, SIGTERM), 1 when the
// command line is wrong or the terminal cannot be initialised. A daemon
// that is not running is not fatal: the screen says so and retries.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "ctl/cli-checks.h"
#include "ctl/socket-choice.h"
#include "ctl/top/tab-views.h"
#include "ctl/top/top-fetch.h"
#include "ctl/top/top-keys.h"
#include "ctl/top/top-screen.h"
#include "fips-build-config.h"

namespace {

volatile std::sig_atomic_t stopRequested = 0;

// How long the status bar shows a disconnect's outcome.
constexpr uint64_t NOTICE_MS = 10'000;

extern "C" void onStopSignal(int) {
  stopRequested = 1;
}

// SIGINT, SIGTERM and SIGHUP end the loop so the terminal is restored; no
// SA_RESTART, so a waiting getch returns at once.
void catchStopSignals() {
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

int fail(const std::string& reason) {
  std::fprintf(stderr, "fipstop: %s\n", reason.c_str());
  return 1;
}

uint64_t nowMs(bool wall) {
  using namespace std::chrono;
  auto since =
      wall ? system_clock::now().time_since_epoch() : steady_clock::now().time_since_epoch();
  return static_cast<uint64_t>(duration_cast<milliseconds>(since).count());
}

// The poll-draw-key loop until a quit key or a stop signal.
void run(fips::ctl::top::TopScreen& screen, fips::ctl::top::TopFetcher& fetcher,
         fips::ctl::top::TopData& data) {
  using namespace fips::ctl::top;
  ViewState state;
  fetcher.poll(data, nowMs(true), historyQuery(state));
  uint64_t lastPoll = nowMs(false);
  // "Updated: Ns ago" counts from the last poll the daemon answered: while
  // disconnected the data on screen is that old.
  uint64_t lastAnswer = lastPoll;
  uint64_t lastDraw = 0;
  uint64_t noticeAt = 0;
  bool dirty = true;
  TabView view;
  while (stopRequested == 0 && !state.quit) {
    if (dirty) {
      view = buildTab(state, data, static_cast<size_t>(screen.columns()));
      fitToView(state, view, screen.contentLines());
      const auto overlay = state.confirming ? confirmLines(state.confirm)
                                            : helpLines(static_cast<size_t>(screen.columns()));
      const bool modal = state.confirming || state.help;
      screen.draw(tabBar(state.tab, FIPS_VERSION, static_cast<size_t>(screen.columns())), view,
                  state.scroll, modal ? &overlay : nullptr,
                  // The status bar's last cell stays empty (see TopScreen::draw).
                  statusBar(state, data, nowMs(false) - lastAnswer,
                            static_cast<size_t>(screen.columns() - 1)));
      lastDraw = nowMs(false);
      dirty = false;
    }
    const int code = screen.readKey(250);
    bool pollNow = false;
    if (code == TopScreen::RESIZED) {
      dirty = true;
    } else if (code != TopScreen::NO_KEY) {
      int digitTab = -1;
      const Key key = keyFromCurses(code, digitTab);
      const HistoryQuery before = historyQuery(state);
      if (key == Key::Delete && !state.confirming && !state.help) requestDisconnect(state, data);
      handleKey(state, key, digitTab, view.selectableRows, screen.contentLines());
      dirty = true;
      if (!state.disconnectNow.empty()) {  // confirmed with Y
        data.notice = fetcher.disconnect(state.disconnectNow, state.confirm.name);
        noticeAt = nowMs(false);
        state.disconnectNow.clear();
        pollNow = true;
      }
      // Another window, mode or selector: fetch it now, as the reference.
      pollNow = pollNow || !(historyQuery(state) == before);
    }
    const uint64_t now = nowMs(false);
    if (!data.notice.empty() && now - noticeAt >= NOTICE_MS) {
      data.notice.clear();
      dirty = true;
    }
    if (pollNow || now - lastPoll >= data.refreshSecs * 1000) {
      fetcher.poll(data, nowMs(true), historyQuery(state));
      lastPoll = nowMs(false);
      if (data.disconnected.empty()) lastAnswer = lastPoll;
      dirty = true;
    } else if (now - lastDraw >= 1000) {
      dirty = true;  // "Updated: Ns ago"
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Monitor a running FIPS daemon", "fipstop");
  app.set_version_flag("-V,--version", std::string("fipstop ") + FIPS_VERSION);
  std::string socketPath;
  std::string configPath;
  uint64_t refresh = 2;
  app.add_option("-s,--socket", socketPath,
                 "Control socket path (default: -c's node.control.socket_path, else "
                 "$FIPS_CONTROL_SOCKET, else the system default)")
      ->check(fips::ctl::nonEmptyPath);
  app.add_option("-c,--config", configPath,
                 "fips.yaml of the node to watch (its node.control.socket_path)")
      ->check(fips::ctl::nonEmptyPath);
  app.add_option("-r,--refresh", refresh, "Refresh interval in seconds (default 2)")
      ->check(fips::ctl::refreshSeconds);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);
    return fail(error.what());
  }
  try {
    socketPath =
        fips::ctl::chooseControlSocket(fips::ctl::socketSourcesFromProcess(socketPath, configPath));
  } catch (const std::exception& error) {
    return fail(error.what());
  }
  if (::isatty(STDIN_FILENO) == 0 || ::isatty(STDOUT_FILENO) == 0)
    return fail("failed to initialize terminal: standard input and output must be a terminal");

  std::setlocale(LC_ALL, "");
  catchStopSignals();
  fips::ctl::top::TopData data;
  data.refreshSecs = refresh;
  fips::ctl::top::TopFetcher fetcher(socketPath);
  try {
    fips::ctl::top::TopScreen screen;
    try {
      run(screen, fetcher, data);
    } catch (const std::exception& error) {
      screen.restore();
      return fail(error.what());
    }
  } catch (const std::exception& error) {
    return fail(std::string("failed to initialize terminal: ") + error.what());
  }
  return 0;
}
