#!/usr/bin/env bash
# Stress check outside the normal run (issue 28 item 7): runs test/tools/operator-scripts.e2e.test.ts
# N times (default 20) in a row and stops at the first failure, to catch races such as the
# `write EPIPE` once seen when a script exited before reading the stdin the test wrote to it.
# Usage: bash test/stress/operator-scripts-20.sh [N]   (needs Node 24 on PATH, or run it through
# scripts/with-node24.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-20}"
for i in $(seq 1 "$runs"); do
  if ! out=$(node --test --test-concurrency=1 test/tools/operator-scripts.e2e.test.ts 2>&1); then
    echo "$out" >&2
    echo "operator-scripts.e2e.test.ts failed on run $i of $runs" >&2
    exit 1
  fi
  echo "run $i of $runs: pass"
done
echo "operator-scripts.e2e.test.ts passed $runs times in a row"
