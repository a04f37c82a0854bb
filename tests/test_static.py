"""Static checks that CI must keep green: the whole server (engine, lobby, realtime layer) passes
`mypy --strict` (as configured in pyproject.toml), the Python tree is ruff-clean, and no document,
docstring or comment speaks of issue numbers or of the work's history (they say what is true now)."""

from __future__ import annotations

import re
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


HISTORY = re.compile(
    r"\b[Ii]ssues? ?#?\d"                                        # issue 14, issues 14 and 30, issue14
    r"|(?<![\w/&'\"])#\d{1,4}\b(?!\w)"                            # #31 (not '#888', not owner/repo#123)
    r"|\b(?:[Tt]his|[Pp]revious|a later|the next) (?:work )?session\b"
    r"|\b(?:[Tt]his|[Ll]ast|[Pp]revious) round of work\b|\bbefore this round\b|\b[Tt]his round'?s?\b"
    r"|\bearlier stop\b|\blast session's\b"
)
"""Issue numbers and the work's history; a session of the game's protocol and a round of the game are
named otherwise ("a token from an earlier session", "the job of an earlier round")."""


def test_documents_name_no_issue_numbers_or_work_history() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    kinds = (".py", ".md", ".js", ".mjs", ".sh", ".conf", ".yml", ".yaml", ".toml", "Makefile", "Dockerfile")
    found = []
    for name in tracked.splitlines():
        if not name.endswith(kinds) or name.startswith(("client/dist/", "build/")) or "node_modules/" in name \
                or name == "tests/test_static.py":   # (its patterns)
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if HISTORY.search(line):
                found.append(f"{name}:{n}: {line.strip()}")
    assert found == [], "\n".join(found)


def test_test_modules_have_unique_names() -> None:
    """pytest imports a test module by its name: its base name, qualified by the packages (folders with an
    `__init__.py`) it sits in; two of one name stop the whole run at collection ("import file mismatch")."""
    seen: dict[str, Path] = {}
    clashes = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        name, folder = path.stem, path.parent
        while (folder / "__init__.py").exists():
            name, folder = f"{folder.name}.{name}", folder.parent
        if name in seen:
            clashes.append(f"{seen[name].relative_to(ROOT)} and {path.relative_to(ROOT)}")
        seen.setdefault(name, path)
    assert not clashes, "test modules of one name: " + "; ".join(clashes)
