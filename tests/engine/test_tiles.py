"""A tile's boats change only through its own methods (table.py), which keep its cached values right:
nothing else in the engine or its bots writes a tile's beaches or royal boat, and over random games every
tile's cached codes, counts, free moorings, full and open beaches and drawing equal those of the same tile
built afresh."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from server.game import COLOURS, Game
from server.game.drawing import tile_view
from server.game.game import rules_of
from server.game.table import Placed

ROOT = Path(__file__).resolve().parents[2]
BOATS = ("beaches", "royal")
MUTATORS = {"append", "remove", "clear", "pop", "extend", "insert", "sort", "reverse", "__setitem__"}


def writes_boats(source: str, name: str) -> list[str]:
    """Where `source` writes a tile's boats other than through the tile's methods: an assignment to
    `x.beaches`, `x.royal` (or into them), or a list method that changes `x.beaches` or one of its beaches,
    `x` not being `self` (another class's own field of that name)."""
    found = []

    def boats_of(node: ast.AST) -> bool:
        while isinstance(node, ast.Subscript):
            node = node.value
        return (isinstance(node, ast.Attribute) and node.attr in BOATS
                and not (isinstance(node.value, ast.Name) and node.value.id == "self"))

    for node in ast.walk(ast.parse(source, name)):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            targets = [node.func.value]
        found += [f"{name}:{t.lineno}" for t in targets if boats_of(t)]
    return found


def test_only_the_tiles_own_methods_write_its_boats() -> None:
    engine = [p for p in sorted((ROOT / "server" / "game").glob("*.py")) if p.name != "table.py"]
    bots = [p for p in sorted((ROOT / "server" / "bots").glob("*.py")) if p.name != "expeditions.py"]
    assert engine and bots
    assert [line for p in engine + bots for line in writes_boats(p.read_text(), p.name)] == []
    # the check sees a write around the tile's methods, and not a class's own field
    made_up = "t.beaches[0].append('red')\ngame.tiles[c].royal = 'red'\nx.beaches = []\nself.beaches = ()\n"
    assert sorted(writes_boats(made_up, "made_up")) == ["made_up:1", "made_up:2", "made_up:3"]
    assert writes_boats((ROOT / "server" / "game" / "table.py").read_text(), "table.py") == []


def fresh(t: Placed) -> Placed:
    """The same tile, built again with the same boats: nothing cached."""
    again = Placed(t.name, t.cell, t.rotation)
    again.restore([list(boats) for boats in t.beaches], t.royal)
    return again


def assert_caches_right(game: Game) -> None:
    for t in rules_of(game).tiles.values():
        again = fresh(t)
        assert (t.codes(), t.counts(), t.free(), t.full_beaches(), t.open_beaches()) == (
            again.codes(), again.counts(), again.free(), again.full_beaches(), again.open_beaches()), t.name
        assert tile_view(t) == tile_view(again), t.name


def test_every_tiles_cached_values_stay_right_over_random_games() -> None:
    """After every action of random games of every size and variant (a landing, a migration, a royal
    island, a colonisation, an endless chain's removal, a take-back...), each tile's cached values, asked
    for before the action so that a stale one would show, equal those of the tile built afresh."""
    decisions = 0
    for seed in range(12):
        players = 2 + seed % 5
        variants = {"free_follow_up": seed % 2 == 1, "two_colours": seed % 6 == 3}
        colours = list(COLOURS[:4] if variants["two_colours"] else COLOURS[:players])
        game = Game.new(colours, seed=seed, variants=variants)
        rng = random.Random(seed)
        while game.to_move is not None:
            assert_caches_right(game)   # asked for now: cached across the action that follows
            game.apply(game.sample_action(rng))
            decisions += 1
        assert_caches_right(game)
    assert decisions > 1000
