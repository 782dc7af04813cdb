#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the include layering of fips-cpp (docs/design/layers.md): a file may
# include headers of its own unit and of units in lower layers, never of a
# unit in its own layer or above, so no folder includes a folder that depends
# on it. Also checks that the folder-level include graph (every directory,
# router/ subfolders included) has no cycle. Prints each offending include
# as FILE:LINE: UNIT -> UNIT: #include "..." and exits 1 if there is any.
# Usage: scripts/check-layers.sh [SOURCE_ROOT]   (default: the repository)
set -uo pipefail
cd "${1:-$(dirname "$0")/..}" || exit 2

# Bottom up. Units on one line are one layer and must not include each other.
LAYERS=(
  "lib"                                   # result.h, unique-fd.h
  "lib/crypto"                            # primitives, the key types
  "lib/identity"                          # npub/nsec, NodeAddr, key files
  "privsep/schema"                        # every boundary's Cap'n Proto schema
  "privsep"                               # channel, logging, privilege drop, seccomp
  "privsep/config"                        # fips.yaml loader and validation
  "router/fmp"                            # the FMP wire format: links and stream framers
  "router transports tun-helper gateway"  # the daemons' code, each on its own
  "privsep/supervisor ctl"                # fips, fipsctl/fipstop: start or query the daemons
)

edges=$(mktemp)
trap 'rm -f "$edges" "$edges.loop"' EXIT
# One awk pass over every include line (FILE:LINE:#include "PATH").
git ls-files --cached --others --exclude-standard '*.cpp' '*.h' | grep -v '^tests/\|^subprojects/' | xargs grep -n '^#include "' |
  awk -v layers="$(printf '%s\n' "${LAYERS[@]}")" -v edges="$edges" '
    BEGIN {
      n = split(layers, line, "\n")
      for (i = 1; i <= n; i++) { m = split(line[i], u, " "); for (j = 1; j <= m; j++) rank[u[j]] = i }
    }
    # The longest unit that is a prefix of the folder of path; bare generated
    # schema headers (foo.capnp.h) belong to privsep/schema.
    function unit_of(path,   dir, best, unit) {
      if (path !~ /\//) return path ~ /\.capnp\.h$/ ? "privsep/schema" : ""
      dir = path; sub(/\/[^\/]*$/, "", dir)
      best = ""
      for (unit in rank)
        if ((dir == unit || index(dir, unit "/") == 1) && length(unit) > length(best)) best = unit
      return best
    }
    {
      file = $0; sub(/:.*/, "", file)
      rest = substr($0, length(file) + 2)
      lineno = rest; sub(/:.*/, "", lineno)
      include = substr(rest, length(lineno) + 2)
      target = include; sub(/^[^"]*"/, "", target); sub(/".*/, "", target)
      from = unit_of(file); to = unit_of(target)
      if (from == "" || to == "") next
      if (target ~ /\//) {
        fd = file; sub(/\/[^\/]*$/, "", fd); td = target; sub(/\/[^\/]*$/, "", td)
        if (fd != td) print fd, td > edges
      }
      if (from != to && rank[to] >= rank[from]) {
        printf "%s:%s: %s -> %s: %s\n", file, lineno, from, to, include; bad = 1
      }
    }
    END { exit bad }'
bad=$?

# Folder cycles (within a unit too): tsort reports a loop on stderr.
if ! sort -u "$edges" | tsort >/dev/null 2>"$edges.loop"; then
  echo "folder include cycle:"
  cat "$edges.loop"
  bad=1
fi

if [ "$bad" -ne 0 ]; then
  echo "layers: FAILED (see docs/design/layers.md)"
  exit 1
fi
echo "layers: ok (${#LAYERS[@]} layers)"
