#!/usr/bin/env bash
# `npm run test:busy`: the whole of `npm test` on a machine kept busy, to prove the suite does not depend on
# a quiet machine. A CPU hog (one process per core, spinning at normal priority) runs beside the suite for
# its whole duration and is stopped when it ends. `TEST_BUSY_RUNS=N` repeats the suite N times in a row
# (default 1), stopping at the first failure. Not part of CI (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh

cores=$(nproc 2>/dev/null || echo 2)
hogs=()
stop_hogs() { for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for _ in $(seq "$cores"); do
  node -e 'for (;;) {}' &
  hogs+=("$!")
done
echo "[test:busy] ${#hogs[@]} spinning processes beside the suite (pids ${hogs[*]})"

runs=${TEST_BUSY_RUNS:-1}
for run in $(seq "$runs"); do
  echo "[test:busy] run $run of $runs"
  bash scripts/test.sh
done
echo "[test:busy] passed $runs time(s) with the machine busy"
