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
# switch tabs (Peers lists B with its address and a measured SRTT, Loss
# and Goodput; Performance shows B's link MMP row with a measured SRTT;
# Tree; Graphs, whose Right picks the next time window and m its per-peer
# modes; Transports, whose Right expands a transport to its links); Enter
# opens a peer's detail; Del asks before disconnecting B, N keeps it, Y
# drops it (fipsctl no longer lists it); a window resize
# redraws at the new width; at 80x24 the tab bar names all nine tabs
# (abbreviated), 1-9 each show their tab and the help fits; at 60 columns
# the bar shows the tabs around the active one; q, Ctrl-C and SIGTERM each leave the alternate
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
NAME_B="npub1${NPUB[B]:5:4}...${NPUB[B]: -4}"  # B's display name: its short npub
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
check "Peers tab has the table header with the link MMP columns" \
  screen_has "Name  *Npub  *Transport  *Dir  *SRTT  *Loss  *LQI  *Goodput  *Pkts Tx  *Pkts Rx"
peer_row_measured() {  # B's row: udp/address, out, an SRTT in ms, a loss, a goodput
  screen_text | grep "$SHORT_B" |
    grep -Eq "udp/10\.97\.0\.2:2121 +out +[0-9]+\.[0-9]ms +[0-9]\.[0-9]{3} +[-0-9.]+ +[0-9.]+ [KMG]?B/s"
}
check "Peers tab: B's row has a measured SRTT, Loss, LQI and Goodput" wait_until 10 peer_row_measured
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
perf_row_measured() {  # B's Link MMP row: mode full, an SRTT in ms
  screen_text | grep -F "$NAME_B" | grep -Eq "full +[0-9]+\.[0-9]ms"
}
check "7: Performance tab lists one link" wait_until 3 screen_has "Link MMP (1 peers)"
check "Performance: B's row with a measured SRTT" wait_until 5 perf_row_measured
check "Performance: the session pane" screen_has "Session MMP ("
key s
check "Performance: s sorts the link pane by SRTT" wait_until 3 screen_has "sort: name srtt▲ loss"
key 8
check "8: Routing tab with the routing state" wait_until 3 screen_has "Pending Lookups (0)"
key f
check "f on Routing: the next pane has the focus" wait_until 3 screen_has "^▶Pending Lookups (0)"
key 9
check "9: Graphs tab plots the peer count" wait_until 3 screen_has "peer_count (peers): now 1"
key Right
check "Right on Graphs: the next time window" wait_until 3 screen_has "window 10m / 1s"
key m
by_peer_row() { screen_text | grep -F "$NAME_B" | grep -Eq "min [0-9.]+ +max [0-9.]+ +last [0-9.]+ +n [0-9]+"; }
check "m on Graphs: srtt_ms by peer lists B with its samples" wait_until 5 by_peer_row
key m
check "m again: B's per-peer metrics stacked" wait_until 5 screen_has "Peer $NAME_B, window 10m / 1s"
check "PeerByMetric plots B's srtt_ms" wait_until 3 screen_has "srtt_ms (ms): now "
key m
key 3
check "3: Transports tab, collapsed" wait_until 3 screen_has "▸ udp"
key Down Right
check "Down, Right: the transport expands to the link to B" wait_until 3 screen_has "└ 10.97.0.2:2121"

# --- Del on the Peers tab: asks first, N keeps B, Y disconnects it
key 2
wait_until 3 screen_has "Peers (1)"
key Down DC
check "Del: the confirmation names B" wait_until 3 bash -c \
  "tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q 'Disconnect peer?' && tmux -L $TMUX_SOCK capture-pane -p -t top | grep -qF 'Peer: $NAME_B'"
key n
check "N: the confirmation closes, B stays" wait_until 3 screen_has "Peers (1)"
check "N: B is still a peer" peer_up
key DC
wait_until 3 screen_has "Disconnect peer?"
key y
peer_gone() { ! peer_up; }
check "Y: the daemon drops B" wait_until 5 peer_gone
check "Y: the status bar says so" wait_until 3 screen_has "disconnected $NAME_B"
check "Y: the Peers tab empties" wait_until 5 screen_has "Peers (0)"

# --- resize: redrawn at the new width (the rule under the tab bar spans it)
rule_width() { screen_text | sed -n 2p | tr -d '\n' | wc -m; }
tm resize-window -t top -x 100 -y 30
check "resize: redrawn at 100 columns" wait_until 3 bash -c "[ \$(tmux -L $TMUX_SOCK capture-pane -p -t top | sed -n 2p | tr -d '\n' | wc -m) -eq 100 ]"

# --- 80x24: the bar names every tab (abbreviated); each number shows its tab
bar_has() { tm capture-pane -p -t top | sed -n 1p | grep -qF -- "$1"; }
tm resize-window -t top -x 80 -y 24
check "80x24: the tab bar names all nine tabs" wait_until 3 bar_has \
  " 1 Node  2 Peers  3 Trans  4 Sess  5 Tree  6 Filt  7 Perf  8 Route  9 Graph"
for tab in "1:npub:      ${NPUB[A]}" "2:Peers (" "3:Transports (" "4:Sessions (" "5:Tree Position" \
  "6:Bloom Filter State" "7:Link MMP (" "8:Routing State" "9:metrics, window"; do
  key "${tab%%:*}"
  check "80x24: ${tab%%:*} shows ${tab#*:}" wait_until 3 screen_has "${tab#*:}"
done
check "80x24: the status bar on the last line" bash -c \
  "tmux -L $TMUX_SOCK capture-pane -p -t top | sed -n 24p | grep -q '^ Connected | Refresh: 1s'"
key 2  # (once the Del notice, shown 10 s, has gone)
check "80x24: the status bar hints the tab's own keys first, ? help last" wait_until 15 bash -c \
  "tmux -L $TMUX_SOCK capture-pane -p -t top | sed -n 24p | grep -q '| ↑↓ select  Enter detail .*? help *\$'"
key 9
key '?'
check "80x24: the help's lines fit the width" wait_until 3 bash -c \
  "tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q 'Keys (? or Esc closes)' &&
   tmux -L $TMUX_SOCK capture-pane -p -t top | grep -q 'peer (PeerByMetric)\$'"
key Escape
# 60 columns: the tabs around the active one, ‹ › where the bar goes on
tm resize-window -t top -x 60 -y 24
check "60 columns: Graphs active, the bar ends at 9 Graph" wait_until 3 bar_has \
  " ‹ 3 Trans  4 Sess  5 Tree  6 Filt  7 Perf  8 Route  9 Graph"
key 2
check "60 columns: 2 scrolls the bar back to 1 Node" wait_until 3 bar_has \
  " 1 Node  2 Peers  3 Trans  4 Sess  5 Tree  6 Filt  7 Perf ›"
check "60 columns: 2 shows the Peers tab" wait_until 3 screen_has "Peers ("
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
