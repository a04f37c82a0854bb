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
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements.lock -nt "$stamp" ]; then
  .venv/bin/pip install --quiet --upgrade pip
  # Reproducible: exactly the locked versions, each checked against its hash (scripts/lock.sh writes
  # the lock from pyproject.toml); then the project itself, whose dependencies are all in the lock.
  .venv/bin/pip install --quiet --require-hashes -r requirements.lock
  .venv/bin/pip install --quiet --no-deps -e .
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

if [ -f client/package.json ]; then
  if [ ! -d client/node_modules ] || [ client/package.json -nt client/node_modules ]; then
    (cd client && if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --silent; else npm install --no-audit --no-fund --silent; fi)
  fi
  (cd client && npm run --silent build)
fi

# Tests only: Chromium for the browser tests, nginx for the deployment topology test, promtool (Debian's
# prometheus package) for the alert rules' tests.
if [ "$want_browser" = "--browser" ] && ! command -v chromium >/dev/null 2>&1; then
  apt_install chromium
fi
if [ "$want_browser" = "--browser" ] && ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  apt_install nginx-light || apt_install nginx
fi
if [ "$want_browser" = "--browser" ] && ! command -v promtool >/dev/null 2>&1; then
  apt_install --no-install-recommends prometheus
fi
