// SPDX-License-Identifier: MIT
// fipstop's terminal: ncurses (wide-character build) on stdin/stdout, in
// the alternate screen when the terminal has one. Draws what the model
// (tab-views.h) built and reads keys; holds no data of its own. The
// destructor, or restore(), gives the terminal back as it was. Runs in
// fipstop as the invoking user.
#pragma once

#include <string>
#include <vector>

#include "ctl/top/tab-views.h"

struct screen;

namespace fips::ctl::top {

class TopScreen {
 public:
  // Takes over the terminal; throws std::runtime_error with the reason
  // (no terminal, unknown TERM) when it cannot.
  TopScreen();
  ~TopScreen();
  TopScreen(const TopScreen&) = delete;
  TopScreen& operator=(const TopScreen&) = delete;

  // What readKey returns besides a curses key code.
  static constexpr int NO_KEY = -1;  // nothing within the timeout, or a signal
  static const int RESIZED;          // the window changed size (KEY_RESIZE)

  // The next key as a curses code, RESIZED, or NO_KEY when none came within
  // `timeoutMs` or a signal arrived.
  int readKey(int timeoutMs);

  // Lines between the tab bar and the status bar.
  int contentLines() const;
  int columns() const;

  // Draws one frame. `overlay` (the help) replaces the content when set.
  void draw(const TabBar& bar, const TabView& content, int scroll, const std::vector<Line>* overlay,
            const std::string& status);

  // Leaves curses mode (idempotent); the terminal is as before.
  void restore();

 private:
  ::screen* screen_ = nullptr;
  bool colours_ = false;
};

}  // namespace fips::ctl::top
