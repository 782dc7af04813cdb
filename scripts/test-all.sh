#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every test of fips-cpp, on a fresh Debian 12 machine, as root:
#   1. installs the build dependencies (apt-get) and the `fips` user,
#   2. builds (build/) and runs every meson test: unit, privsep, integration,
#   3. builds the unit tests again with ASan+UBSan (build-asan/, only the
#      unit test programs and what they link) and runs them,
#   4. builds the libFuzzer targets with clang (build-fuzz/) and runs each
#      for FIPS_FUZZ_SECONDS (default 20; 0 skips) from its seed corpus:
#      a smoke run; long fuzzing is ./scripts/fuzz.sh [SECONDS].
# ccache is used when installed (install-deps.sh installs it): a second run
# on the same machine recompiles only what changed.
# Ends with the line "tests: N passed, M failed"; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."

[ "$(id -u)" -eq 0 ] || { echo "run as root (needs apt-get, network namespaces, TUN)"; exit 1; }
./scripts/install-deps.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }

JOBS=$(nproc)
configure() {  # configure DIR [meson options...]
  local dir=$1
  shift
  if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" --wrap-mode=nodownload "$@" >"$dir.setup.log" 2>&1 ||
      { cat "$dir.setup.log"; return 1; }
  fi
}
setup() {  # setup DIR [meson options...]: configure and build everything
  configure "$@" && ninja -C "$1" -j "$JOBS"
}
suite_targets() {  # suite_targets DIR SUITE: the programs the suite's tests run and need, as ninja targets
  python3 - "$1" "$2" <<'PY'
import json, os, subprocess, sys
build, suite = os.path.realpath(sys.argv[1]), sys.argv[2]
def introspect(what):
    return json.loads(subprocess.run(["meson", "introspect", what, build],
                                     check=True, capture_output=True, text=True).stdout)
files = {t["id"]: t["filename"] for t in introspect("--targets")}
wanted = set()
for t in introspect("--tests"):
    if suite in t["suite"] or any(s.endswith(":" + suite) for s in t["suite"]):
        wanted.add(os.path.realpath(t["cmd"][0]))
        for dep in t["depends"]:
            wanted.update(os.path.realpath(f) for f in files.get(dep, []))
for path in sorted(wanted):
    print(os.path.relpath(path, build))
PY
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

if CC=gcc CXX=g++ configure build-asan -Db_sanitize=address,undefined -Db_lundef=false \
     -Dbuildtype=debug &&
   asan_targets=$(suite_targets build-asan unit) && [ -n "$asan_targets" ] &&
   # shellcheck disable=SC2086 # one target per word
   ninja -C build-asan -j "$JOBS" $asan_targets; then
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 run_suite build-asan --no-rebuild --suite unit
else
  build_failures=$((build_failures + 1))
fi

FIPS_FUZZ_SECONDS=${FIPS_FUZZ_SECONDS:-20}
if [ "$FIPS_FUZZ_SECONDS" -gt 0 ]; then
  rm -f build-fuzz/meson-logs/testlog.json
  ./scripts/fuzz.sh "$FIPS_FUZZ_SECONDS"
  if [ -f build-fuzz/meson-logs/testlog.json ]; then
    results+=("build-fuzz/meson-logs/testlog.json")
  else
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
