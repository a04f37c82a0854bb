#!/usr/bin/env bash
# Rewrites requirements.lock (every package of the service and its tests, exact versions with hashes) from
# pyproject.toml. scripts/bootstrap.sh installs from the lock, so every install is the tested set.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v uv >/dev/null 2>&1 || { echo "needs uv: pip install uv" >&2; exit 1; }
uv pip compile pyproject.toml --extra test --generate-hashes --python-version 3.11 --quiet \
  --custom-compile-command "./scripts/lock.sh" -o requirements.lock
# the service alone (no test tools), for the image (deploy/Dockerfile)
uv pip compile pyproject.toml --generate-hashes --python-version 3.11 --quiet \
  --custom-compile-command "./scripts/lock.sh" -o requirements-server.lock
