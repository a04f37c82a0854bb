"""The client's unit tests (pure modules: hex geometry, view-to-SVG mapping, input state machine, event
queue, patches, i18n; the lobby's and a room's sessions over a scripted connection) run with Node's built-in
test runner; this makes them part of `make test`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from browserkit import node_binary

CLIENT = Path(__file__).resolve().parents[2] / "client"


def test_client_unit_tests_pass_under_node() -> None:
    node = node_binary()
    if node is None:
        pytest.fail("node is not installed (the client needs Node.js to build and test)")
    # the files are found as `npm test` finds them; TAP, whatever the line's default reporter
    run = subprocess.run([node, "--test", "--test-reporter=tap"], cwd=CLIENT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout


def test_client_and_server_number_view_keys_alike() -> None:
    """Patches send the view's keys by number (docs/protocol.md §5): both ends must share one table."""
    from server.patch import KEYS

    node = node_binary()
    assert node is not None
    run = subprocess.run([node, "--input-type=module", "-e",
                          "import { KEYS } from './src/patch.js'; console.log(JSON.stringify(KEYS));"],
                         cwd=CLIENT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == list(KEYS)
