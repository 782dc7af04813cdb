#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fipstop in a real terminal (tmux) against a running 2-node mesh (#7):
#
#   ns tA-$$                      ns tB-$$
#   fips (A) 10.97.0.1:2121 ---- veth ---- 10.97.0.2:2121 fips (B)
#
# A lists B as a peer. fipstop runs in a tmux pane (its own tmux server)
# on A's control socket. Checks: the Node tab names A's npub and draws a
# sparkline row of the daemon's stats history; Tab, number keys and Left
# switch tabs (Peers lists B with its address, Tree, Graphs, whose Right
# picks the next time window); Enter opens a peer's detail; a window resize
# redraws at the new width; q, Ctrl-C and SIGTERM each leave the alternate
# screen with status 0 and give back a terminal that echoes again; with
# no daemon the screen says so in one line and q exits 0; a stopped daemon
# shows "Disconnected"; without a terminal it prints one line, status 1.
set -u
BUILD=${1:?usage: fipstop-test.sh BUILD_DIR}
. "$(dirname "$0")/../lib/netns.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v tmux >/dev/null || { echo "SKIP: needs tmux"; exit 77; }

node_ns A "tA-$$"
node_ns B "tB-$$"
veth_link A B 10.97.0.1/24 10.97.0.2/24
netns_workdir
node_keygen A B
node_config A --bind 10.97.0.1:2121 --peer B 10.97.0.2:2121
node_config B --bind 10.97.0.2:2121
SOCK_A=$WORK/A/control.sock
start_suite A; start_suite B
wait_until 10 test -S "$SOCK_A"
peer_up() { "$BUILD/ctl/fipsctl" -s "$SOCK_A" show peers | grep -q "${NPUB[B]}"; }
check "A and B link up" wait_until 10 peer_up

# --- a tmux server of our own, one pane running a plain shell
TMUX_SOCK=fipstop-test-$$
tm() { tmux -L "$TMUX_SOCK" "$@"; }
CLEANUPS+=("tmux -L $TMUX_SOCK kill-server 2>/dev/null")
tm -f /dev/null new-session -d -s top -x 160 -y 40 \
  "env -i PATH=/usr/bin:/bin TERM=screen LANG=C.UTF-8 PS1='shell\$ ' bash --norc --noprofile"
tm set-option -t top remain-on-exit on >/dev/null
screen_text() { tm capture-pane -p -t top; }
screen_has() { screen_text | grep -q -- "$1"; }
alternate_on() { [ "$(tm display-message -p -t top '#{alternate_on}')" = 1 ]; }
alternate_off() { [ "$(tm display-message -p -t top '#{alternate_on}')" = 0 ]; }
pane_shell() { tm display-message -p -t top '#{pane_pid}'; }
fipstop_pid() { pgrep -P "$(pane_shell)" -x fipstop; }
launch() {  # launch ARGS...: fipstop in the pane; its status printed when it ends
  tm send-keys -t top "clear; $BUILD/ctl/fipstop $*; echo fipstop-exit=\$?" Enter
}
key() { tm send-keys -t top "$@"; }
echoes_again() {  # the shell echoes what is typed and runs it: the tty is sane
  key "echo typed-ok-$1" Enter
  wait_until 3 bash -c "tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q '^shell\$ echo typed-ok-$1\$'" &&
    wait_until 3 bash -c "tmux -L $TMUX_SOCK capture-pane -p -t top | grep -qx 'typed-ok-$1'"
}
SHORT_B="${NPUB[B]:0:16}…"
SPARK='[▁▂▃▄▅▆▇█]'

# --- Node tab: npub, a sparkline row, the alternate screen
launch -s "$SOCK_A" -r 1
check "fipstop starts in the alternate screen" wait_until 5 alternate_on
check "Node tab names A's npub" wait_until 5 screen_has "npub:      ${NPUB[A]}"
spark_row() { screen_text | grep -Eq "^  peer_count +$SPARK$SPARK+  1\$"; }
check "Node tab draws a sparkline row of the daemon's peer_count history (two samples or more)" \
  wait_until 5 spark_row
check "tab bar lists the tabs" screen_has "1 Node  2 Peers  3 Transports  4 Sessions  5 Tree"

# --- tabs
key Tab
check "Tab: Peers tab with B's row and transport address" \
  wait_until 3 bash -c "tmux -L $TMUX_SOCK capture-pane -p -t top | grep '$SHORT_B' | grep -q '10.97.0.2:2121'"
check "Peers tab has the table header" screen_has "Name  *Npub  *Transport  *Address"
key Down Enter
check "Down, Enter: the peer's detail with B's full npub" \
  wait_until 3 bash -c "tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q 'npub *${NPUB[B]}'"
key Escape
check "Esc: back to the table" wait_until 3 screen_has "Peers (1)"
key 5
check "5: Tree tab" wait_until 3 screen_has "Tree Position"
key Left
check "Left: Sessions tab" wait_until 3 screen_has "Sessions (0)"
key 7
check "7: Performance tab, not served yet" wait_until 3 screen_has "not available from this daemon yet"
key 8
check "8: Routing tab with the routing state" wait_until 3 screen_has "Pending Lookups (0)"
key 9
check "9: Graphs tab plots the peer count" wait_until 3 screen_has "peer_count (peers): now 1"
key Right
check "Right on Graphs: the next time window" wait_until 3 screen_has "window 10m / 1s"
key 3
check "3: Transports tab shows the link to B under udp" wait_until 3 screen_has "└ 10.97.0.2:2121"

# --- resize: redrawn at the new width (the rule under the tab bar spans it)
rule_width() { screen_text | sed -n 2p | tr -d '\n' | wc -m; }
tm resize-window -t top -x 100 -y 30
check "resize: redrawn at 100 columns" wait_until 3 bash -c "[ \$(tmux -L $TMUX_SOCK capture-pane -p -t top | sed -n 2p | tr -d '\n' | wc -m) -eq 100 ]"
tm resize-window -t top -x 160 -y 40

# --- q restores the terminal
key q
check "q: fipstop exits with status 0" wait_until 3 screen_has "^fipstop-exit=0$"
check "q: the alternate screen is left" alternate_off
check "q: the shell prompt is back and nothing of fipstop is left on the screen" \
  bash -c "! tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q '1 Node' && tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q '^shell\\$'"
check "q: the terminal echoes again" echoes_again q

# --- Ctrl-C and SIGTERM restore it too
launch -s "$SOCK_A"
wait_until 5 alternate_on
key C-c
check "Ctrl-C: status 0, alternate screen left" wait_until 3 bash -c \
  "tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q '^fipstop-exit=0$' && [ \$(tmux -L $TMUX_SOCK display-message -p -t top '#{alternate_on}') = 0 ]"
check "Ctrl-C: the terminal echoes again" echoes_again int
launch -s "$SOCK_A"
wait_until 5 alternate_on
wait_until 3 fipstop_pid >/dev/null
kill -TERM "$(fipstop_pid)"
check "SIGTERM: status 0, alternate screen left" wait_until 3 bash -c \
  "tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q '^fipstop-exit=0$' && [ \$(tmux -L $TMUX_SOCK display-message -p -t top '#{alternate_on}') = 0 ]"
check "SIGTERM: the terminal echoes again" echoes_again term

# --- no daemon: one readable line on the screen, q exits 0
launch -s "$WORK/none.sock"
check "no daemon: one line says why, nothing else" wait_until 5 bash -c \
  "[ \$(tmux -L $TMUX_SOCK capture-pane -p -t top | grep -c 'cannot connect to $WORK/none.sock: No such file or directory (is the FIPS daemon running?)') -eq 2 ]"
check "no daemon: the status bar says Disconnected" screen_has "^ Disconnected: cannot connect to"
check "no daemon: it retries" screen_has "Retrying every 2s; q quits."
key q
check "no daemon: q exits with status 0" wait_until 3 screen_has "^fipstop-exit=0$"

# --- the daemon going away while fipstop runs
launch -s "$SOCK_A" -r 1
wait_until 5 screen_has "npub:      ${NPUB[A]}"
stop_suite A
check "daemon stopped: the status bar says Disconnected, the last data stays" wait_until 5 bash -c \
  "tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q '^ Disconnected: ' && tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q '${NPUB[A]}'"
key q
check "daemon stopped: q exits with status 0" wait_until 3 screen_has "^fipstop-exit=0$"

# --- no terminal
"$BUILD/ctl/fipstop" -s "$SOCK_A" </dev/null >"$WORK/out" 2>"$WORK/err"
check "no terminal: status 1" [ $? -eq 1 ]
check "no terminal: one line on stderr" bash -c \
  "[ \$(wc -l < $WORK/err) -eq 1 ] && grep -q '^fipstop: failed to initialize terminal: ' $WORK/err"
"$BUILD/ctl/fipstop" -r 0 </dev/null 2>"$WORK/err"
check "-r 0 is refused in one line, status 1" bash -c "[ $? -eq 1 ] && [ \$(wc -l < $WORK/err) -eq 1 ]"

finish
