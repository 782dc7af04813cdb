#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets with clang (build-fuzz/, only the fuzz targets
# and what they link) and runs each for SECONDS from its seed corpus
# (tests/fuzz/corpus/NAME; findings are kept in build-fuzz/tests/fuzz/corpus-NAME).
#
#   ./scripts/fuzz.sh [SECONDS] [NAME...]   default 600 s each, every target
#
# The test command (scripts/test-all.sh) runs this with FIPS_FUZZ_SECONDS
# (default 20) as a smoke test; long fuzzing is this command, run by hand.
# Needs root only to install the build dependencies.
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h | --help) sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
seconds=${1:-600}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number ('$seconds' given)" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))

if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang CXX=clang++ meson setup build-fuzz --wrap-mode=nodownload -Dfuzzing=enabled \
    -Dbuildtype=debugoptimized >build-fuzz.setup.log 2>&1 || { cat build-fuzz.setup.log; exit 1; }
fi
targets=$(ninja -C build-fuzz -t targets all | sed -n 's|^\(tests/fuzz/fuzz-[a-z0-9-]*\):.*|\1|p' | sort -u)
if [ "$#" -gt 0 ]; then
  targets=$(for n in "$@"; do echo "tests/fuzz/fuzz-$n"; done)
fi
# shellcheck disable=SC2086 # one target per word
ninja -C build-fuzz -j "$(nproc)" $targets || exit 1
suites=(--suite fuzz)
if [ "$#" -gt 0 ]; then suites=(); for n in "$@"; do suites+=("fuzz.$n"); done; fi
# A long run needs more than the per-test timeout meson has (300 s).
FIPS_FUZZ_SECONDS=$seconds meson test -C build-fuzz --no-rebuild --print-errorlogs \
  --num-processes "$(nproc)" --timeout-multiplier $(((seconds + 299) / 300 + 1)) "${suites[@]}"
