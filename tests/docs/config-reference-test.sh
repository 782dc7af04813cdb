#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs/reference/config.md is what the config loader prints: regenerates the
# page from BUILD_DIR's fips into a scratch file and compares.
set -u
BUILD=${1:?usage: config-reference-test.sh BUILD_DIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp)
trap 'rm -f "$scratch"' EXIT
"$ROOT/scripts/gen-config-reference.sh" "$BUILD" "$scratch" || exit 1
if diff -u "$ROOT/docs/reference/config.md" "$scratch"; then
  echo "ok - docs/reference/config.md matches the config loader"
else
  echo "FAIL - docs/reference/config.md is stale: run ./scripts/gen-config-reference.sh"
  exit 1
fi
