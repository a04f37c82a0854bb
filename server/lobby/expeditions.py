"""The Expeditions rules engine (server/game/expeditions, EXPEDITIONS.md E1–E13) as a game mode of the
authority (server/lobby/mode.py): simultaneous secret orders, one round per turn (docs/protocol.md §14).

A player's order is kept in the secret state until the turn resolves: the events of a submission say
only who ordered. E3: an order may be replaced (another order for the same turn) or withdrawn
(`WITHDRAW`) until the turn resolves. The last order in resolves the turn at once; the deadline resolves
it without the missing ones (`deadline()`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.bots import turn_budget
from server.bots.expeditions import expeditions_bot
from server.game.expeditions import Expeditions, OrderError
from server.lobby.errors import Rejected
from server.lobby.mode import WITHDRAW, Action, Event, Illegal, LiveGame, View
from server.lobby.settings import Settings, number, seat_count
from server.records import turns

DEADLINE = (30, 72 * 3600)
"""A turn's deadline, in seconds: from live play to play over days (docs/protocol.md §14)."""

CHANGES = 12
"""Orders and withdrawals one colour may send in one turn (E3 lets a player change their mind until the
turn resolves; each change is a message to the whole table and a line of the game's log, so not without
bound)."""

REPORT_WAIT = 25.0
"""Seconds at most that a live turn's deadline waits after the turn before resolved, for its report to be
played to every connected player (`report_seen`, docs/protocol.md §14): the report takes 10-20 s to
play, and one stalled client must not stop the game."""

LIVE_DEADLINE = 600.0
"""Turn deadlines up to this many seconds are live play, where the report would eat the next turn; a
game over days (longer deadlines) starts each turn's clock at once."""


class ExpeditionsGame:
    """A live Expeditions engine behind the LiveGame contract."""

    __slots__ = ("game",)

    def __init__(self, game: Expeditions) -> None:
        self.game = game

    def __repr__(self) -> str:
        return f"ExpeditionsGame(turn={self.game.turn}, deciding={self.deciding!r})"

    @property
    def deciding(self) -> tuple[str, ...]:
        if self.game.over is not None:
            return ()
        return tuple(c for c in self.game.colours if c not in self.game.pending)

    @property
    def round(self) -> int | None:
        return self.game.turn

    def apply(self, action: Action, colour: str) -> list[Event]:
        game = self.game
        if game.over is not None:
            raise Illegal("game_over", "the game is over")
        turn = game.turn
        if game.changed(colour) >= CHANGES and game.pending_order(colour) is not None:
            # (without an order in, one more is always welcome: a player is never locked out of a turn)
            raise Illegal("too_many_changes", f"{colour} changed its order for turn {turn} {CHANGES} times: "
                                              "the last one stands until the turn resolves")
        if action.get("type") == WITHDRAW["type"]:
            if game.pending_order(colour) is None:
                raise Illegal("no_order", f"{colour} has no order in for turn {turn}")
            game.withdraw(colour)
            return [{"type": "withdrawn", "colour": colour, "turn": turn}]
        try:
            game.submit(colour, action)   # E3: replaces the colour's order, if it had one in
        except OrderError as e:
            raise Illegal(e.code, e.message) from None
        # the same event for a first order and a replacement: nobody else learns which version is in
        events: list[Event] = [{"type": "submitted", "colour": colour, "turn": turn}]
        if not self.deciding:   # the last order is in
            events.extend(self._resolve())
        return events

    def deadline(self) -> list[Event]:
        """The turn resolves with the orders in (E3: the missing ones do nothing)."""
        if self.game.over is not None:
            raise Illegal("game_over", "the game is over")
        return [{"type": "deadline", "turn": self.game.turn, "missing": list(self.deciding)}, *self._resolve()]

    def _resolve(self) -> list[Event]:
        return [e.to_wire() for e in self.game.resolve()]

    def public_view(self) -> View:
        return self.game.view()

    def private(self, colour: str) -> dict[str, Any] | None:
        game = self.game
        if game.over is not None or colour not in game.colours:
            return None
        order = game.pending_order(colour)
        # the options stay while an order is in: it may be replaced until the turn resolves (E3)
        return {"colour": colour, "turn": game.turn, "options": game.legal_orders(colour).to_wire(),
                "order": None if order is None else order.to_wire(),
                "changes_left": max(0, CHANGES - game.changed(colour))}

    def to_bytes(self) -> bytes:
        return self.game.to_bytes()

    def watch(self, check: Callable[[], None] | None) -> None:
        """Nothing to watch: a step takes about a millisecond at most (measured over 30 games of 2 to 6
        colours: p99 1.0 ms, slowest 1.7 ms of 1,200 steps, a turn's resolution included)."""


class ExpeditionsMode:
    """The game mode of EXPEDITIONS.md E1–E13."""

    name = "expeditions"
    simultaneous = True

    def __repr__(self) -> str:
        return "ExpeditionsMode()"

    def new(self, settings: Settings, seed: int) -> LiveGame:
        return ExpeditionsGame(Expeditions.new(settings.colours(), seed))

    def settings(self, data: dict[str, Any]) -> dict[str, Any]:
        """The seats and the turn's deadline (required); no variants and no starting seat (E3: everyone
        orders at once)."""
        if {"variants", "first"} & set(data):
            raise Rejected("malformed", "an Expeditions room has no variants and no starting seat")
        return {"seats": seat_count(data, 4), "clock": number(data, "clock", None, *DEADLINE)}

    def load(self, state: bytes) -> LiveGame:
        return ExpeditionsGame(Expeditions.from_bytes(state))

    def report_wait(self, settings: Settings) -> float:
        live = settings.clock is not None and settings.clock <= LIVE_DEADLINE
        return REPORT_WAIT if live else 0.0

    def logged(self, action: Action) -> Action:
        """An order stays its seat's secret, even once its turn is over: the log keeps only that one was
        sent or withdrawn; what each colour played is the resolution's `orders` event (E3, E13)."""
        kind = action.get("type")
        return {"type": kind} if kind == WITHDRAW["type"] else {"type": "order"}

    def drawn(self, events: list[Event]) -> list[str]:
        return []   # the deck's order stays secret: the replay is rebuilt from the stored game (`frames`)

    def frames(self, state: bytes, log: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Rebuilt by the engine from the stored game's seed and each resolved turn's orders (its random
        state decides landfalls and typhoons), whatever the game's length (server/records/turns.py)."""
        return turns.frames(state, log)

    def bot_action(self, state: bytes, colour: str, level: str, seed: int, spent: float = 0.0) -> Action:
        """The order of `colour`'s bot of `level` (random, greedy, search: server/bots/expeditions.py); a
        turn is one decision, so the search spends the turn's budget on it."""
        bot = expeditions_bot(level, seed=seed, budget=turn_budget(spent))
        return bot.choose(Expeditions.from_bytes(state), colour).to_wire()
