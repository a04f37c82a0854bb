#!/usr/bin/env bash
# Rewrites the locks from pyproject.toml (exact versions with hashes); scripts/bootstrap.sh and the image
# install only from them, hash-checked, so every install is the tested set:
#   requirements.lock         the service, the embedded Redis and the test tools (make run, make test)
#   requirements-server.lock  the service alone (the image: production always sets REDIS_URL)
#   requirements-build.lock   what builds the package ([build-system] requires: setuptools, wheel, mypy for
#                             mypyc, msgpack), installed before a build without isolation
set -euo pipefail
cd "$(dirname "$0")/.."
command -v uv >/dev/null 2>&1 || { echo "needs uv: pip install uv" >&2; exit 1; }
common=(--generate-hashes --python-version 3.11 --quiet --custom-compile-command "./scripts/lock.sh")
uv pip compile pyproject.toml --extra test --extra embedded "${common[@]}" -o requirements.lock
uv pip compile pyproject.toml "${common[@]}" -o requirements-server.lock
python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))' \
  | uv pip compile - -c requirements.lock "${common[@]}" -o requirements-build.lock   # same pins as the venv's
