"""Static checks that CI must keep green: the whole server (engine, lobby, realtime layer) passes
`mypy --strict` (as configured in pyproject.toml), and the Python tree is ruff-clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_server_passes_mypy_strict() -> None:
    from mypy import api

    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "-p", "server"])
    assert status == 0, out + err


def test_python_tree_is_ruff_clean() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "server", "bench", "tests"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
