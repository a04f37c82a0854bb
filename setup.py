"""Compiles the rules engine (server/game/) to C extensions with mypyc, the compiler that ships with mypy.

The engine is plain, strictly typed Python; compiled, the same source plays random games about twice as
fast (docs/engine.md, "Performance"). Every module but `__init__.py` is compiled, and the digests of the
compiled sources are written to server/game/native.json, so that `server.game` can refuse a build older
than its source. With TONGIAKI_PURE_PYTHON=1 nothing is compiled and the engine runs as plain Python.
"""

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup

ENGINE = sorted(p for p in Path("server/game").glob("*.py") if p.name != "__init__.py")

ext_modules = []
if os.environ.get("TONGIAKI_PURE_PYTHON") != "1":
    from mypyc.build import mypycify

    digests = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in ENGINE}
    Path("server/game/native.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    ext_modules = mypycify([str(p) for p in ENGINE], opt_level="3", group_name="server.game.native")

setup(ext_modules=ext_modules)
