"""The client's unit tests (pure modules: hex geometry, view-to-SVG mapping, input state machine, event
queue, patches, i18n) run with Node's built-in test runner; this makes them part of `make test`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "client"


def test_client_unit_tests_pass_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (the client needs Node.js to build and test)")
    run = subprocess.run([node, "--test", "test/"], cwd=CLIENT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
