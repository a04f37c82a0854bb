#!/usr/bin/env bash
# Proves the dependency floors in pyproject.toml: installs the LOWEST version every runtime dependency
# allows (uv's `--resolution lowest-direct`) into a throw-away virtualenv, with the test tools at their
# locked versions, and runs the realtime tests (real sockets, real Redis) against it. Not part of
# `make test` (it downloads and installs a second environment); run it when a floor changes:
#   ./scripts/min-versions.sh [venv-dir]        (default: .venv-min)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv-min}
shift $(( $# > 0 ? 1 : 0 ))
shift $(( $# > 0 ? 1 : 0 ))
python3 -m venv --clear "$venv"
"$venv/bin/pip" install --quiet uv
"$venv/bin/uv" pip compile pyproject.toml --resolution lowest-direct --python-version 3.11 \
  --no-header --no-annotate --quiet -o "$venv/floors.txt"
# the test tools as locked (requirements.lock), without their hashes
tools=$(grep -E '^(pytest|pytest-asyncio|pytest-timeout|hypothesis|psutil|pyyaml|ruff|iniconfig|pluggy|packaging|pygments|sortedcontainers)==' \
        requirements.lock | sed 's/ .*//')
# shellcheck disable=SC2086
"$venv/bin/uv" pip install --quiet --python "$venv/bin/python" -r "$venv/floors.txt" $tools
# the engine stays plain Python here (TONGIAKI_PURE_PYTHON=1): nothing is compiled into the work tree
TONGIAKI_PURE_PYTHON=1 "$venv/bin/uv" pip install --quiet --python "$venv/bin/python" --no-deps --no-build-isolation -e . 2>/dev/null \
  || TONGIAKI_PURE_PYTHON=1 "$venv/bin/pip" install --quiet --no-deps -e .
echo "installed floors:"; sed 's/^/  /' "$venv/floors.txt"
TONGIAKI_PURE_PYTHON=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/realtime "$@"
