"""How the view draws the table's pieces (R15): tiles in world directions, and the stack summed up."""

from __future__ import annotations

from typing import Any

from .catalogue import STACK_TILES, TILES, Island, Ocean
from .geometry import world_side
from .table import Placed


def tile_view(t: Placed) -> dict[str, Any]:
    """A tile on the table as the view draws it: world directions, boats, royal boat. Kept on the tile
    until its boats change (the tile's own methods forget it), so successive views share the tiles an
    action left alone: most of them, which makes the view and a server's patch between two views cheap. A
    view's tiles are read, never changed."""
    if t.drawn is not None:
        return t.drawn
    out = tile_shape(t.name, t.rotation)
    out["cell"] = [t.cell[0], t.cell[1]]
    if t.island is not None:
        for beach, boats in zip(out["beaches"], t.beaches, strict=True):
            beach["boats"] = list(boats)
        out["royal"] = t.royal
    t.drawn = out
    return out


def tile_shape(name: str, rotation: int = 0) -> dict[str, Any]:
    """A tile's drawing, turned by `rotation`: island beaches (moorings, pier directions) or ocean paths
    ([direction, direction, danger]). With rotation 0 the directions are the tile's own sides, which is
    how the tile in hand is shown: the client turns it while the player chooses."""
    tile = TILES[name]
    out: dict[str, Any] = {"tile": name, "rotation": rotation}
    if isinstance(tile, Island):
        out["kind"] = "island"
        out["value"] = tile.value
        out["beaches"] = [
            {"moorings": b.moorings, "piers": [world_side(p, rotation) for p in b.piers], "boats": []}
            for b in tile.beaches
        ]
        out["royal"] = None
    else:
        assert isinstance(tile, Ocean)
        out["kind"] = "ocean"
        out["paths"] = [[world_side(a, rotation), world_side(b, rotation), danger] for a, b, danger in tile.paths]
    return out


def stack_summary(stack: list[str]) -> dict[str, Any]:
    """What remains in the stack, by kind, island value and ocean danger: countable, so public (R15).
    Sorted, so it says nothing of the order."""
    values = dict.fromkeys(_VALUES, 0)
    dangers = dict.fromkeys(_DANGERS, 0)
    islands = oceans = 0
    for name in stack:
        tile = TILES[name]
        if isinstance(tile, Island):
            islands += 1
            values[str(tile.value)] += 1
        else:
            assert isinstance(tile, Ocean)
            oceans += 1
            for _a, _b, danger in tile.paths:
                dangers[str(danger)] += 1
    return {
        "islands": islands,
        "oceans": oceans,
        "island_values": values,
        "ocean_dangers": dangers,
        "remaining": sorted(stack),
    }


# The island values and ocean dangers of the tile set, in order: the summary names each, even at 0.
_VALUES = [str(v) for v in sorted({t.value for t in (TILES[n] for n in STACK_TILES) if isinstance(t, Island)})]
_DANGERS = [
    str(d) for d in sorted({d for t in (TILES[n] for n in STACK_TILES) if isinstance(t, Ocean) for *_, d in t.paths})
]
