"""The pure rules engine of Tongiaki (RULES.md R1–R15). No I/O, no clock: see docs/engine.md.

Installed, its modules run compiled by mypyc (setup.py); from source alone they run as plain Python.
"""

import sys
from pathlib import Path


def _refuse_stale_build() -> None:
    # A compiled module is imported in preference to its source, and the compiled code of them all lives
    # in one library (native__mypyc): a library older than a source would silently play by old rules.
    here = Path(__file__).parent
    for library in here.glob("native__mypyc*.so"):
        built = library.stat().st_mtime
        for compiled in here.glob("*.so"):
            source = here / (compiled.name.split(".")[0] + ".py")
            if source.exists() and source.stat().st_mtime > built:
                raise ImportError(
                    f"{source} changed after the engine was compiled: run scripts/bootstrap.sh to compile "
                    "it again, or delete server/game/*.so to run it as plain Python"
                )


_refuse_stale_build()

from .catalogue import COLOURS  # noqa: E402 - after the check above
from .errors import IllegalAction, PositionError  # noqa: E402
from .game import BOATS, VARIANTS, Game  # noqa: E402

COMPILED: bool = (sys.modules[Game.__module__].__file__ or "").endswith(".so")
"""Whether the engine runs compiled (mypyc) rather than as plain Python."""

__all__ = ["BOATS", "COLOURS", "COMPILED", "VARIANTS", "Game", "IllegalAction", "PositionError"]
