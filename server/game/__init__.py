"""The pure rules engine of Tongiaki (RULES.md R1–R15). No I/O, no clock: see docs/engine.md.

Installed, its modules run compiled by mypyc (setup.py); from source alone they run as plain Python.
"""

import hashlib
import json
import sys
from pathlib import Path


def refuse_stale_build(here: Path) -> None:
    """Raise ImportError when the engine in `here` is compiled from other sources than those beside it.

    A compiled module is imported in preference to its source, so such a build would silently play by
    other rules. setup.py records the digests of what it compiled in native.json."""
    if not any(here.glob("native__mypyc*.so")):
        return
    record = here / "native.json"
    compiled = json.loads(record.read_text()) if record.exists() else {}
    for name in sorted({p.name.split(".")[0] + ".py" for p in here.glob("*.so")} - {"native__mypyc.py"}):
        source = here / name
        if source.exists() and hashlib.sha256(source.read_bytes()).hexdigest() != compiled.get(name):
            raise ImportError(
                f"{source} changed after the engine was compiled: run scripts/bootstrap.sh to compile it "
                "again, or delete server/game/*.so to run it as plain Python"
            )


refuse_stale_build(Path(__file__).parent)

from .catalogue import COLOURS  # noqa: E402 - after the check above
from .errors import IllegalAction, PositionError  # noqa: E402
from .game import BOATS, VARIANTS, Game  # noqa: E402

COMPILED: bool = (sys.modules[Game.__module__].__file__ or "").endswith(".so")
"""Whether the engine runs compiled (mypyc) rather than as plain Python."""

__all__ = ["BOATS", "COLOURS", "COMPILED", "VARIANTS", "Game", "IllegalAction", "PositionError"]
