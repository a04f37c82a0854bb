"""Positions for the Expeditions rule tests."""

from __future__ import annotations

from typing import Any

from server.game.expeditions import TILES, Expeditions
from server.game.expeditions.catalogue import ISLANDS, SEAS, Cell


def position(
    tiles: list[dict[str, Any]],
    top: list[str] | None = None,
    draws: list[int] | None = None,
    colours: tuple[str, ...] = ("red", "blue"),
    **extra: Any,
) -> Expeditions:
    """A game on `tiles` whose deck starts with `top` (the rest sorted) and whose random outcomes start with `draws`."""
    used = {t["tile"] for t in tiles}
    rest = sorted(set(TILES) - used - set(top or []))
    return Expeditions.from_position(
        {"colours": list(colours), "tiles": tiles, "deck": list(top or []) + rest, "draws": list(draws or []), **extra}
    )


def rim(count_islands: int, count_seas: int, skip: set[str]) -> list[dict[str, Any]]:
    """Filler tiles along the board's outer rows, away from the centre: that many islands (not Tonga) and seas."""
    cells = [Cell(x, y) for y in (1, 11, 2, 10) for x in range(1, 12)]
    islands = [i.id for i in ISLANDS[1:] if i.id not in skip][:count_islands]
    seas = [s.id for s in SEAS if s.id not in skip][:count_seas]
    return [{"tile": t, "cell": [c.x, c.y]} for t, c in zip(islands + seas, cells, strict=False)]


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]
