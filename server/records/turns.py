"""An Expeditions game's messages rebuilt by its engine, however long the game (its record keeps them).

The engine is deterministic from its seed: the stored game (server-side only: it holds the seed) gives the
seed and each resolved turn's orders (`Expeditions.log`), and the action log says who sent or withdrew an
order when, and which round the deadline closed. Replaying those gives every message the table received,
`{v, events, patch}` from v = 0. A line of a turn not resolved yet is never replayed: its orders are still
their seats' secrets, and a submission is replayed with the order that stood at the turn's end (or a pass,
if it was withdrawn), which the view does not show (only that an order is in).
"""

from __future__ import annotations

from typing import Any

from server import patch
from server.game.expeditions import Expeditions


def _resolved(game: Expeditions, orders: dict[str, Any]) -> list[dict[str, Any]]:
    """The turn resolved with the orders that stood at its end (what the live game resolved with)."""
    for colour in game.submitted:
        game.withdraw(colour)
    for colour, order in orders.items():
        game.submit(colour, order)
    return [e.to_wire() for e in game.resolve()]


def _step(game: Expeditions, line: dict[str, Any], orders: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of one line of the action log, applied to `game` as the live game applied it."""
    turn, colour, action = game.turn, line["colour"], line["action"]
    if action is None:   # the deadline closed the turn
        missing = [c for c in game.colours if c not in game.submitted]
        return [{"type": "deadline", "turn": turn, "missing": missing}, *_resolved(game, orders)]
    if action.get("type") == "withdraw":
        game.withdraw(colour)
        return [{"type": "withdrawn", "colour": colour, "turn": turn}]
    game.submit(colour, orders.get(colour) or {"type": "pass"})
    events: list[dict[str, Any]] = [{"type": "submitted", "colour": colour, "turn": turn}]
    if len(game.submitted) == len(game.colours):   # the last order in resolves the turn
        events.extend(_resolved(game, orders))
    return events


def frames(state: bytes, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages of the Expeditions game stored as `state`, from v = 0 through the lines of its action
    log `lines` (lines of `records.logged`, v = 1 …) whose turn has resolved."""
    final = Expeditions.from_bytes(state)
    game = Expeditions.new(final.colours, final.seed)
    before = game.view()
    out = [{"v": 0, "events": [], "patch": patch.diff(None, before)}]
    for line in lines:
        if game.over is not None or game.turn > len(final.log):   # a turn still open: its lines stay secret
            break
        events = _step(game, line, final.log[game.turn - 1])
        after = game.view()
        out.append({"v": line["v"], "events": events, "patch": patch.diff(before, after)})
        before = after
    return out
