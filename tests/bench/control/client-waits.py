#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# client-waits.py: where bench-control waited for a CPU, from a scheduler
# trace (issue #7; tests/bench/README.md "bench-control"). Developer tool,
# needs perf (Debian linux-perf), not a dependency of the project:
#
#   perf sched record -a -o sched.data -- bench-control SOCKET 2000 trace ...
#   perf script -i sched.data -F comm,tid,cpu,time,event,trace | client-waits.py
#
# For every time the client (comm bench-control) became runnable, by a
# wake-up or by being preempted (sched_switch with prev_state R), until it
# ran: the wait (us), what began it, and whether its CPU ran another normal
# thread (prio >= 100) meanwhile. Also on which CPU the client's requests
# woke B's control thread (comm fips-control): the client's own or another.
import re
import sys

EVENT = re.compile(r'\s*(\S.*?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(\w+):\s+(.*)')
SWITCH = re.compile(r'prev_comm=(.*?) prev_pid=\d+ prev_prio=\d+ prev_state=(\S+) ==> '
                    r'next_comm=(.*?) next_pid=\d+ next_prio=(\d+)')
CLIENT, SERVER = 'bench-control', 'fips-control'

waits = []          # (wait us, other normal threads run meanwhile, how it began)
pending = None      # [start us, cpu, others, how]
placement = {'own': 0, 'other': 0}
for line in sys.stdin:
    m = EVENT.match(line)
    if not m:
        continue
    comm, _, cpu, t, name, rest = m.groups()
    t, cpu = float(t) * 1e6, int(cpu)
    if name == 'sched_waking':
        target = int(re.search(r'target_cpu=(\d+)', rest).group(1))
        if comm == CLIENT and f'comm={SERVER} ' in rest:
            placement['own' if target == cpu else 'other'] += 1
        if f'comm={CLIENT} ' in rest and pending is None:
            pending = [t, target, 0, 'wake']
    elif name == 'sched_switch':
        s = SWITCH.search(rest)
        if not s:
            continue
        prev, state, nxt, prio = s.groups()
        if prev == CLIENT and state.startswith('R'):
            pending = [t, cpu, 0, 'preempted by ' + nxt]
        if nxt == CLIENT:
            if pending:
                waits.append((t - pending[0], pending[2], pending[3]))
            pending = None
        elif pending and cpu == pending[1] and int(prio) >= 100 and not nxt.startswith('swapper'):
            pending[2] += 1

if not waits:
    sys.exit('no waits of ' + CLIENT + ' in the trace')
ordered = sorted(w[0] for w in waits)
n = len(ordered)
print(f'{n} waits of the client for a CPU: median {ordered[n // 2]:.0f} us, '
      f'p99 {ordered[int(n * 0.99)]:.0f} us, max {ordered[-1]:.0f} us, '
      f'total {sum(ordered) / 1000:.1f} ms')
long = [w for w in waits if w[0] > 500]
began = {}
for w in long:
    began[w[2]] = began.get(w[2], 0) + 1
print(f'{len(long)} over 500 us ({sum(w[0] for w in long) / 1000:.1f} ms); another normal '
      f'thread ran on its CPU meanwhile in {sum(1 for w in long if w[1] > 0)}; began as {began}')
print(f"its requests woke {SERVER} on the client's own CPU {placement['own']} times, "
      f"on another {placement['other']} times")
for how in ('preempted by ' + SERVER, 'wake'):
    some = sorted(w[0] for w in waits if w[2] == how)
    if some:
        print(f'after "{how}": {len(some)} waits, median {some[len(some) // 2]:.0f} us, '
              f'p99 {some[int(len(some) * 0.99)]:.0f} us, max {some[-1]:.0f} us')
