"""The engine as it ships: compiled by mypyc (setup.py), and never a build older than its source."""

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

import server.game
from server.game import refuse_stale_build

ENGINE = Path(server.game.__file__).parent


def test_the_tests_run_the_engine_as_built():
    # `make test` compiles the engine (scripts/bootstrap.sh), so the tests prove what the server runs;
    # TONGIAKI_PURE_PYTHON=1 asks for the plain-Python engine instead (and then no compiled one may load).
    wanted = os.environ.get("TONGIAKI_PURE_PYTHON") != "1"
    assert wanted == server.game.COMPILED, "run scripts/bootstrap.sh (or delete server/game/*.so for plain Python)"


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "game"
    copy.mkdir()
    for source in ENGINE.glob("*.py"):
        shutil.copy(source, copy / source.name)
    for library in ("native__mypyc.cpython-311-x86_64-linux-gnu.so", "game.cpython-311-x86_64-linux-gnu.so"):
        (copy / library).write_bytes(b"")  # stand-ins: only their names matter here
    return copy


def _record(copy: Path) -> None:
    """What setup.py writes after compiling."""
    sources = (p for p in copy.glob("*.py") if p.name != "__init__.py")
    (copy / "native.json").write_text(json.dumps({p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sources}))


def test_a_build_of_the_sources_beside_it_is_accepted(tmp_path):
    copy = _copy(tmp_path)
    _record(copy)
    refuse_stale_build(copy)


def test_a_build_of_other_sources_is_refused(tmp_path):
    copy = _copy(tmp_path)
    _record(copy)
    with (copy / "game.py").open("a") as game:
        game.write("\n# edited after compiling\n")
    with pytest.raises(ImportError, match="game.py changed after the engine was compiled"):
        refuse_stale_build(copy)
    (copy / "native.json").unlink()  # no record at all: refused too
    with pytest.raises(ImportError):
        refuse_stale_build(copy)


def test_plain_python_is_accepted(tmp_path):
    copy = _copy(tmp_path)
    for library in copy.glob("*.so"):
        library.unlink()
    with (copy / "game.py").open("a") as game:
        game.write("\n# edited\n")
    refuse_stale_build(copy)
