"""R1 components and R2 geometry basics: the catalogue matches tiles.json, counts, colours, boats."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from server.game import BOATS, COLOURS, Game
from server.game.catalogue import ISLANDS, OCEANS, STACK_TILES, TILES, TONGA, Island, Ocean
from server.game.geometry import OFFSETS, forced_rotation, neighbour, opposite, tile_side, world_side

TILES_JSON = Path("/work/shared/tiles.json")


def test_r1_colours_and_boats():
    """R1: colours red, blue, green, yellow, orange, purple in that order; 15 boats each; 2–6 players."""
    assert COLOURS == ("red", "blue", "green", "yellow", "orange", "purple")
    assert BOATS == 15
    game = Game.new(["red", "blue"], seed=1)
    assert game.view()["players"][0]["supply"] == 15
    for bad in (["red"], list(COLOURS) + ["red"], ["red", "red"], ["red", "pink"]):
        try:
            Game.new(bad, seed=1)
        except ValueError:
            continue
        raise AssertionError(f"{bad} accepted")
    Game.new(list(COLOURS), seed=1)


def test_r1_island_counts_and_values():
    """R1: 16 islands: Tonga (0 points, 6 beaches of 3, one pier per side) and 3×2, 4×3, 5×4, 3×5."""
    assert len(ISLANDS) == 16
    tonga = TILES[TONGA]
    assert isinstance(tonga, Island) and tonga.value == 0
    assert [(b.moorings, b.piers) for b in tonga.beaches] == [(3, (s,)) for s in range(6)]
    values = Counter(i.value for i in ISLANDS if i.name != TONGA)
    assert values == {2: 3, 3: 4, 4: 5, 5: 3}
    for i in ISLANDS:
        if i.name == TONGA:
            continue
        assert 2 <= len(i.beaches) <= 3, i.name
        piers = [p for b in i.beaches for p in b.piers]
        assert len(piers) == len(set(piers)), f"{i.name}: two piers on one side"
        for b in i.beaches:
            assert 2 <= b.moorings <= 5 and b.piers and all(0 <= p < 6 for p in b.piers), i.name


def test_r1_ocean_paths_pair_sides():
    """R1: 16 ocean tiles, each with 3 paths pairing its 6 sides; dangers in {0, 2, 3, 4}."""
    assert len(OCEANS) == 16
    for o in OCEANS:
        assert len(o.paths) == 3
        assert sorted(s for a, b, _ in o.paths for s in (a, b)) == [0, 1, 2, 3, 4, 5], o.name
        assert all(d in (0, 2, 3, 4) for _, _, d in o.paths), o.name


def test_r1_catalogue_matches_tiles_json():
    """R1: the exact catalogue (every beach, pier and path) is tiles.json."""
    data = json.loads(TILES_JSON.read_text())
    islands = {i["name"]: i for i in data["islands"]}
    assert set(islands) == {i.name for i in ISLANDS}
    for i in ISLANDS:
        spec = islands[i.name]
        assert spec["value"] == i.value
        assert [(b["moorings"], tuple(b["piers"])) for b in spec["beaches"]] == [
            (b.moorings, b.piers) for b in i.beaches
        ], i.name
    oceans = {o["id"]: o for o in data["oceans"]}
    assert set(oceans) == {o.name for o in OCEANS}
    for o in OCEANS:
        assert [tuple(p) for p in oceans[o.name]["paths"]] == list(o.paths), o.name


def test_r1_stack_holds_the_31_other_tiles():
    """R1/R3: the stack is every tile but Tonga: 15 islands and 16 oceans."""
    assert sorted(STACK_TILES) == sorted(n for n in TILES if n != TONGA)
    game = Game.new(["red", "blue"], seed=3)
    s = game.view()["stack"]
    assert (s["islands"], s["oceans"]) == (15, 16)
    assert s["island_values"] == {"2": 3, "3": 4, "4": 5, "5": 3}
    dangers = Counter(str(d) for o in OCEANS for *_, d in o.paths)
    assert s["ocean_dangers"] == dict(dangers)
    assert s["ocean_dangers"]["0"] == 12
    assert isinstance(TILES["a"], Ocean)


def test_r2_geometry_directions_and_rotation():
    """R2: world directions S, SW, NW, N, NE, SE; side s shows toward (s + ρ) % 6; forced ρ = (d + 3) % 6."""
    assert OFFSETS == ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))
    for d in range(6):
        assert neighbour(neighbour((2, -3), d), opposite(d)) == (2, -3)
        assert forced_rotation(d) == (d + 3) % 6
        # the red marker (side 0) of a forced tile faces back toward the tile the fleet left
        assert world_side(0, forced_rotation(d)) == opposite(d)
        for rho in range(6):
            assert world_side(tile_side(d, rho), rho) == d
    assert world_side(1, 4) == 5
