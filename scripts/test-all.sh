#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every test of fips-cpp, on a fresh Debian 12 machine, as root:
#   1. installs the build dependencies (apt-get) and the `fips` user,
#   2. builds (build/) and runs every meson test: unit, privsep, integration,
#   3. builds again with ASan+UBSan (build-asan/) and runs the unit tests,
#   4. builds the libFuzzer targets with clang (build-fuzz/) and runs each
#      for FIPS_FUZZ_SECONDS (default 60; 0 skips) from its seed corpus.
# Ends with the line "tests: N passed, M failed"; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."

[ "$(id -u)" -eq 0 ] || { echo "run as root (needs apt-get, network namespaces, TUN)"; exit 1; }
./scripts/install-deps.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }

JOBS=$(nproc)
setup() {  # setup DIR [meson options...]
  local dir=$1
  shift
  if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" "$@" >/dev/null || return 1
  else
    meson setup "$dir" --wrap-mode=nodownload "$@" >"$dir.setup.log" 2>&1 ||
      { cat "$dir.setup.log"; return 1; }
  fi
  ninja -C "$dir" -j "$JOBS"
}

results=()
build_failures=0
run_suite() {  # run_suite DIR [meson test args...]
  local dir=$1
  shift
  meson test -C "$dir" --print-errorlogs --num-processes "$JOBS" "$@"
  results+=("$dir/meson-logs/testlog.json")
}

if setup build -Dbenchmarks=true; then
  run_suite build
else
  build_failures=$((build_failures + 1))
fi

if CC=gcc CXX=g++ setup build-asan -Db_sanitize=address,undefined -Db_lundef=false \
     -Dbuildtype=debug; then
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 run_suite build-asan --suite unit
else
  build_failures=$((build_failures + 1))
fi

export FIPS_FUZZ_SECONDS=${FIPS_FUZZ_SECONDS:-60}
if [ "$FIPS_FUZZ_SECONDS" -gt 0 ]; then
  # Only the fuzz targets (and what they link) are built with clang.
  if [ -f build-fuzz/build.ninja ] || CC=clang CXX=clang++ meson setup build-fuzz \
       --wrap-mode=nodownload -Dfuzzing=enabled -Dbuildtype=debugoptimized >build-fuzz.setup.log 2>&1; then
    fuzz_targets=$(ninja -C build-fuzz -t targets all | sed -n 's|^\(tests/fuzz/fuzz-[a-z0-9-]*\):.*|\1|p' | sort -u)
    if ninja -C build-fuzz -j "$JOBS" $fuzz_targets; then
      run_suite build-fuzz --no-rebuild --suite fuzz
    else
      build_failures=$((build_failures + 1))
    fi
  else
    cat build-fuzz.setup.log
    build_failures=$((build_failures + 1))
  fi
fi

python3 - "$build_failures" "${results[@]}" <<'PY'
import json, sys
failed = int(sys.argv[1])
passed = 0
for path in sys.argv[2:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        failed += 1
        continue
    for line in lines:
        if not line.strip():
            continue
        r = json.loads(line)["result"]
        if r in ("OK", "EXPECTEDFAIL", "SKIP"):
            passed += 1 if r != "SKIP" else 0
        else:
            failed += 1
print(f"tests: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
