#!/usr/bin/env bash
# Runs every check of the project on this machine: installs what is missing, then lint + format, type
# checks, unit and integration tests (vitest: real PostgreSQL, slapd, SMTP catcher and Temporal dev
# server), and the Playwright journeys in Debian Chromium. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh

bash scripts/install.sh

echo "== lint and format"
npm run lint

echo "== type checks"
npm run typecheck

echo "== unit and integration tests (vitest)"
npx vitest run

echo "== browser journeys (Playwright, Debian Chromium)"
npx playwright test -c tests/playwright.config.ts
