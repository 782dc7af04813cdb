#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one libFuzzer target for FIPS_FUZZ_SECONDS (default 60) from its
# committed seed corpus; new inputs go to a scratch corpus in the build dir,
# never into the tree. Usage: run-fuzzer.sh TARGET SCRATCH_DIR SEED_DIR
set -eu
target=$1 scratch=$2 seeds=$3
mkdir -p "$scratch"
exec "$target" -max_total_time="${FIPS_FUZZ_SECONDS:-60}" -print_final_stats=1 "$scratch" "$seeds"
