"""The engine's two surfaces are what docs/engine.md says they are: `Game`'s public names are exactly the
contract's ("Public surface"), `Rules`' exactly the internal interface its sibling modules use ("Inside
the engine"), and nothing outside the engine reaches inside it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from server.game import Game
from server.game.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "engine.md").read_text()


def section(title: str, end: str = "\n## ") -> str:
    start = DOC.index(f"## {title}\n")
    return DOC[start : DOC.index(end, start + 1)]


def public(names: list[str]) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def contract() -> set[str]:
    """The names the "Public surface" table gives `Game` and its games."""
    names: set[str] = set()
    for line in section("Public surface").splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"(?<![\w.])(?:game|Game)\.(\w+)", line.split("|")[1]))
    return names


def internal() -> set[str]:
    """The names "Inside the engine" lists as `Rules`' internal interface."""
    text = section("Inside the engine")
    listing = text[text.index("These are all of them") : text.index("Where each rule lives")]
    return set(re.findall(r"`([a-z_]+)`", listing))


def test_game_has_exactly_the_documented_contract() -> None:
    documented = contract()
    assert {"new", "apply", "legal_actions", "view", "imagine", "to_move"} <= documented   # the table was read
    assert public(dir(Game)) == documented


def test_rules_has_exactly_the_documented_internal_interface() -> None:
    documented = internal()
    assert {"tiles", "stack", "place", "candidates"} <= documented   # the list was read
    assert public(dir(Rules())) == documented


def reaches_inside(path: Path) -> list[str]:
    """The lines of `path` that import the rules module or call `rules_of`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            names = {a.name for a in node.names}
            if node.module.endswith("game.rules") or (node.module.endswith("game.game") and "rules_of" in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        elif isinstance(node, ast.Import) and any(a.name.endswith("game.rules") for a in node.names):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_nothing_outside_the_engine_reaches_inside_it() -> None:
    """The server and the benchmarks use the contract only; the engine's tests may look inside (through
    `rules_of`), and the check sees them do it."""
    engine = ROOT / "server" / "game"
    outside = [p for top in ("server", "bench") for p in sorted((ROOT / top).rglob("*.py"))
               if engine not in p.parents]
    assert outside and not [line for p in outside for line in reaches_inside(p)]
    assert reaches_inside(Path(__file__))   # this file imports Rules: the check can fail
