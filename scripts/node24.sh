#!/usr/bin/env bash
# Runs its arguments with Node.js 24 first on PATH (scripts/node-env.sh): the root package's scripts go
# through it, so `npm run <script>` runs on Node 24 whatever `node` the shell started with.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
exec "$@"
