#!/usr/bin/env bash
# Installs whatever the local stack needs and is missing, on a fresh clone or a dev machine: npm
# dependencies, Debian's slapd / ldap-utils / chromium, the Temporal CLI (built from its Go module), the
# Prisma client, the services' JavaScript (each package's dist/), the web app bundle and the user manual's PDF. Idempotent and non-interactive (CI runs it as root, no stdin);
# a second run only checks and takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "[install] $*"; }
fail() {
  echo "[install] error: $*" >&2
  exit 1
}
HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
export HOME

# --- Node.js 24 LTS first on PATH (installed into ~/.cache/portal-gateway/node24 when node is older),
# before npm ci so every package's engines are checked against the runtime that will run it.
source scripts/node-env.sh
log "node $(node --version) ($(command -v node))"

# --- npm dependencies: npm ci when node_modules is missing, or package-lock.json or Node's major version
# changed since last time (packages may pick their files by runtime at install).
stamp=node_modules/.portal-install-stamp
lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1) node$(portal_node_major node)"
if [ ! -d node_modules ] || [ "$(cat "$stamp" 2>/dev/null || true)" != "$lock_sum" ]; then
  log "npm ci (package-lock.json or the Node version changed, or node_modules missing)"
  npm ci --no-audit --no-fund </dev/null
  echo "$lock_sum" >"$stamp"
else
  log "npm dependencies: up to date"
fi

# --- Debian packages: OpenLDAP server and tools, Chromium for the browser tests, and Python's venv for scim2-server
# (Debian's python3 makes virtual environments only with python3-venv, which brings ensurepip).
if [ ! -x /usr/sbin/slapd ] || ! command -v ldapadd >/dev/null || [ ! -x /usr/bin/chromium ] ||
  ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || fail "slapd, ldap-utils, chromium or python3-venv is missing and this is not root: install them with apt"
    sudo="sudo -n"
  fi
  log "apt-get install slapd ldap-utils chromium python3 python3-venv"
  $sudo apt-get update </dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y slapd ldap-utils chromium python3 python3-venv </dev/null
else
  log "slapd, ldap-utils, chromium, python3-venv: installed"
fi

# --- Temporal CLI (dev server + Web UI): TEMPORAL_BIN, PATH, the cache, or build it with Go.
temporal_cache="$HOME/.cache/portal-gateway/bin"
if [ -n "${TEMPORAL_BIN:-}" ]; then
  [ -x "$TEMPORAL_BIN" ] || fail "TEMPORAL_BIN=$TEMPORAL_BIN is not executable"
  log "temporal: $TEMPORAL_BIN (TEMPORAL_BIN)"
elif command -v temporal >/dev/null; then
  log "temporal: $(command -v temporal)"
elif [ -x "$temporal_cache/temporal" ]; then
  log "temporal: $temporal_cache/temporal"
else
  go_bin=$(command -v go || echo /usr/local/go/bin/go)
  [ -x "$go_bin" ] || fail "the Temporal CLI is missing and Go is not installed to build it"
  log "building the Temporal CLI v1.5.1 with Go into $temporal_cache (a few minutes the first time)"
  build_dir=$(mktemp -d)
  (cd "$build_dir" && GOBIN="$temporal_cache" GOFLAGS=-buildvcs=false \
    "$go_bin" install github.com/temporalio/cli/cmd/temporal@v1.5.1)
  rm -rf "$build_dir"
  [ -x "$temporal_cache/temporal" ] || fail "go install did not produce $temporal_cache/temporal"
fi

# --- scim2-server (PyPI): the in-memory SCIM 2.0 target of the demo 'Laboratory Information System' and of the
# provisioning tests (issue 41), in its own virtual environment; SCIM2_SERVER_BIN points elsewhere.
scim_version=0.8.3
scim_venv="$HOME/.cache/portal-gateway/scim2-server-$scim_version"
if [ -n "${SCIM2_SERVER_BIN:-}" ]; then
  [ -x "$SCIM2_SERVER_BIN" ] || fail "SCIM2_SERVER_BIN=$SCIM2_SERVER_BIN is not executable"
  log "scim2-server: $SCIM2_SERVER_BIN (SCIM2_SERVER_BIN)"
elif [ -x "$scim_venv/bin/scim2-server" ]; then
  log "scim2-server: $scim_venv/bin/scim2-server"
else
  python=$(command -v python3 || true)
  [ -n "$python" ] || fail "python3 is missing: it runs scim2-server, the demo and test SCIM target"
  log "pip install scim2-server==$scim_version into $scim_venv"
  # Made in place, not beside it and renamed: pip writes the environment's absolute path into every script's
  # shebang, so a renamed one cannot run. A failed install is removed, so the next run starts over.
  rm -rf "$scim_venv"
  "$python" -m venv "$scim_venv"
  if ! "$scim_venv/bin/pip" install --quiet --disable-pip-version-check "scim2-server==$scim_version" </dev/null; then
    rm -rf "$scim_venv"
    fail "pip could not install scim2-server==$scim_version (the demo and test SCIM target)"
  fi
fi

# --- Prisma client, generated when missing or older than the schema (the URL only has to be
# syntactically valid: generate does not connect).
client=prisma/generated/client/client.ts
if [ ! -f "$client" ] || [ prisma/schema.prisma -nt "$client" ] || [ package-lock.json -nt "$client" ]; then
  log "prisma generate"
  (cd prisma && DATABASE_URL="${DATABASE_URL:-postgresql://x:y@127.0.0.1:5432/x}" npx prisma generate </dev/null)
else
  log "prisma client: up to date"
fi

# --- The services as JavaScript: each package's dist/, rebuilt when older than its sources (build.ts).
npx tsx scripts/src/build.ts </dev/null

# --- Web app bundle, rebuilt when any of its sources is newer than web/dist.
if [ ! -f web/index.html ]; then
  log "web: no web/index.html yet, skipping the web build"
else
  sources=(web/index.html web/src contract/src)
  for extra in web/public web/vite.config.ts web/package.json; do [ -e "$extra" ] && sources+=("$extra"); done
  if [ ! -f web/dist/index.html ] || [ -n "$(find "${sources[@]}" -newer web/dist/index.html -print -quit)" ]; then
    log "npm run build -w web"
    npm run build -w web </dev/null
  else
    log "web/dist: up to date"
  fi
fi
# --- The user manual's PDF (docs/manual → docs/manual/dist/user-manual.pdf, served by the API), rebuilt
# when a chapter or screenshot is newer; Chromium prints it, no stack needed.
npx tsx scripts/src/manual/build-pdf.ts </dev/null
log "done"
