// SPDX-License-Identifier: MIT
// fipstop's terminal (see top-screen.h).
#include "ctl/top/top-screen.h"

#include <algorithm>
#include <cstdio>
#include <curses.h>
#include <stdexcept>

#include "ctl/top/sparkline.h"

namespace fips::ctl::top {

namespace {

// Colour pairs.
enum : short { TITLE = 1, ALERT, PLOT, ACTIVE, BAR };

// Lines above the content (tab bar and rule) and below it (status bar).
constexpr int TOP_LINES = 2;
constexpr int BOTTOM_LINES = 1;

}  // namespace

TopScreen::TopScreen() {
  screen_ = newterm(nullptr, stdout, stdin);
  if (screen_ == nullptr) throw std::runtime_error("cannot open the terminal (is TERM set?)");
  set_term(screen_);
  cbreak();
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  set_escdelay(25);
  curs_set(0);
  if (has_colors()) {
    start_color();
    use_default_colors();
    init_pair(TITLE, COLOR_CYAN, -1);
    init_pair(ALERT, COLOR_RED, -1);
    init_pair(PLOT, COLOR_GREEN, -1);
    init_pair(ACTIVE, COLOR_YELLOW, -1);
    init_pair(BAR, COLOR_BLACK, COLOR_WHITE);
    colours_ = true;
  }
}

TopScreen::~TopScreen() {
  restore();
}

void TopScreen::restore() {
  if (screen_ == nullptr) return;
  endwin();
  delscreen(screen_);
  screen_ = nullptr;
  std::fflush(stdout);
}

const int TopScreen::RESIZED = KEY_RESIZE;

int TopScreen::readKey(int timeoutMs) {
  static_assert(NO_KEY == ERR);
  timeout(timeoutMs);
  return getch();
}

int TopScreen::contentLines() const {
  return std::max(LINES - TOP_LINES - BOTTOM_LINES, 1);
}

int TopScreen::columns() const {
  return std::max(COLS, 1);
}

void TopScreen::draw(const TabBar& bar, const TabView& content, int scroll,
                     const std::vector<Line>* overlay, const std::string& status) {
  const size_t width = static_cast<size_t>(columns());
  erase();
  // Tab bar, the active tab highlighted.
  const std::string barText = clipToWidth(bar.text, width);
  mvaddstr(0, 0, barText.c_str());
  if (bar.activeStart < width) {
    mvchgat(0, static_cast<int>(bar.activeStart),
            static_cast<int>(std::min(bar.activeWidth, width - bar.activeStart)),
            A_BOLD | A_UNDERLINE, colours_ ? ACTIVE : 0, nullptr);
  }
  mvhline(1, 0, ACS_HLINE, columns());

  const std::vector<Line>& lines = overlay != nullptr ? *overlay : content.lines;
  const int first = overlay != nullptr ? 0 : scroll;
  for (int row = 0; row < contentLines(); ++row) {
    const int index = first + row;
    if (index < 0 || index >= static_cast<int>(lines.size())) break;
    const Line& line = lines[static_cast<size_t>(index)];
    attr_t attrs = A_NORMAL;
    short pair = 0;
    switch (line.tone) {
      case Tone::Normal:
        break;
      case Tone::Title:
        attrs = A_BOLD;
        pair = TITLE;
        break;
      case Tone::Header:
        attrs = A_BOLD;
        break;
      case Tone::Label:
      case Tone::Dim:
        attrs = A_DIM;
        break;
      case Tone::Selected:
        attrs = A_REVERSE;
        break;
      case Tone::Alert:
        attrs = A_BOLD;
        pair = ALERT;
        break;
      case Tone::Plot:
        pair = PLOT;
        break;
    }
    attr_set(attrs, colours_ ? pair : 0, nullptr);
    const std::string text = clipToWidth(line.text, width);
    mvaddstr(TOP_LINES + row, 0, text.c_str());
    if (line.tone == Tone::Selected) mvchgat(TOP_LINES + row, 0, -1, A_REVERSE, 0, nullptr);
    attr_set(A_NORMAL, 0, nullptr);
  }

  // Status bar, full width, reversed. The bottom-right cell cannot be
  // written without scrolling on some terminals: stop one short.
  const std::string statusText = clipToWidth(status, width > 1 ? width - 1 : width);
  attr_set(A_REVERSE, colours_ ? BAR : 0, nullptr);
  mvhline(LINES - 1, 0, ' ', columns());
  mvaddstr(LINES - 1, 0, statusText.c_str());
  attr_set(A_NORMAL, 0, nullptr);
  refresh();
}

}  // namespace fips::ctl::top
