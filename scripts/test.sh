#!/usr/bin/env bash
# Runs every check of the project on this machine: installs what is missing, then lint + format beside the
# type checks, unit and integration tests (vitest, one project after another: real PostgreSQL, slapd, SMTP
# catcher and Temporal dev server), and the Playwright journeys in Debian Chromium. Stops at the first
# failure. Ends with the timing table (also test-results/timings.json) and fails when a process of the run
# is still alive (scripts/src/test-run/main.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh

install_start=$(date +%s%N)
bash scripts/install.sh
install_ms=$((($(date +%s%N) - install_start) / 1000000))

exec node --import tsx scripts/src/test-run/main.ts --install-ms "$install_ms" "$@"
