"""Compiles the rules engine (server/game/) to C extensions with mypyc, the compiler that ships with mypy.

The engine is plain, strictly typed Python; compiled, the same source plays random games about twice as
fast (docs/engine.md, "Performance"). Every module but `__init__.py` is compiled. With
TONGIAKI_PURE_PYTHON=1 nothing is compiled and the engine runs as ordinary Python, with the same results.
"""

import os
from pathlib import Path

from setuptools import setup

ENGINE = sorted(str(p) for p in Path("server/game").glob("*.py") if p.name != "__init__.py")

ext_modules = []
if os.environ.get("TONGIAKI_PURE_PYTHON") != "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(ENGINE, opt_level="3", group_name="server.game.native")

setup(ext_modules=ext_modules)
