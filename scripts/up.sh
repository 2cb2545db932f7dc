#!/usr/bin/env bash
# The one command: installs what is missing, then starts PostgreSQL, Temporal, slapd, the mail catcher,
# migrations, the demo seed, the worker and the API (serving the web app). Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
bash scripts/install.sh
exec npx tsx --conditions=development scripts/src/up.ts "$@"
