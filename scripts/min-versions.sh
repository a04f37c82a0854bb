#!/usr/bin/env bash
# Proves the dependency floors in pyproject.toml, the test tools' as well as the service's: installs the
# LOWEST version every direct dependency allows (uv's `--resolution lowest-direct`, the `test` and `embedded`
# extras included) into a throw-away virtualenv, and runs the realtime tests (real sockets, real Redis) there,
# under the project's own pytest configuration. Not part of `make test` (it downloads and installs a second
# environment); run it when a floor changes:
#   ./scripts/min-versions.sh [venv-dir [pytest args…]]        (default: .venv-min)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv-min}
shift $(( $# > 0 ? 1 : 0 ))   # the rest goes to pytest
python3 -m venv --clear "$venv"
"$venv/bin/pip" install --quiet uv
"$venv/bin/uv" pip compile pyproject.toml --extra test --extra embedded --resolution lowest-direct \
  --python-version 3.11 --no-header --no-annotate --quiet -o "$venv/floors.txt"
"$venv/bin/uv" pip install --quiet --python "$venv/bin/python" -r "$venv/floors.txt"
# the engine stays plain Python here (TONGIAKI_PURE_PYTHON=1): nothing is compiled into the work tree
TONGIAKI_PURE_PYTHON=1 "$venv/bin/uv" pip install --quiet --python "$venv/bin/python" --no-deps --no-build-isolation -e . 2>/dev/null \
  || TONGIAKI_PURE_PYTHON=1 "$venv/bin/pip" install --quiet --no-deps -e .
echo "installed floors:"; sed 's/^/  /' "$venv/floors.txt"
TONGIAKI_PURE_PYTHON=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/realtime "$@"
