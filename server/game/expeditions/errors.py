"""Typed refusals of the Expeditions engine, each with a stable code."""

from __future__ import annotations

from typing import Any, ClassVar


class OrderError(Exception):
    """An order or call the engine refused; nothing changed.

    `code` is one of CODES (stable, for clients and translations), `message` names the offending input."""

    CODES: ClassVar[tuple[str, ...]] = (
        "malformed",  # not a well-formed order (wire form)
        "game_over",  # the game has ended
        "not_a_player",  # the colour does not play in this game
        "not_on_map",  # the island is not on the map
        "royal_island",  # the island is a royal island: nothing may be placed on it or taken from it
        "tonga",  # Tonga cannot become a royal island
        "has_royal",  # the player already has a royal island
        "not_alone",  # royal island: another colour has boats there
        "no_presence",  # no boat of the player on that island (or that beach) at the start of the turn
        "too_many_moves",  # more boat moves than the island allows
        "supply_short",  # more boats placed than the supply holds
        "circumstance",  # a special-circumstance order (E4) when that circumstance does not hold
    )

    def __init__(self, code: str, message: str, order: Any = None) -> None:
        assert code in self.CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.order = order


class PositionError(ValueError):
    """A position given to `Expeditions.from_position` that cannot exist, or a fixed random outcome out of range."""
