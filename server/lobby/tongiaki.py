"""The Tongiaki rules engine (server/game) as a game mode of the authority (server/lobby/mode.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.bots import make_bot, turn_budget
from server.game import Game, IllegalAction
from server.lobby.errors import Rejected
from server.lobby.mode import Action, Event, Illegal, LiveGame, View
from server.lobby.settings import Settings, is_int, number, seat_count


class TongiakiGame:
    """A live engine Game behind the LiveGame contract."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __repr__(self) -> str:
        return f"TongiakiGame(to_move={self.game.to_move!r})"

    @property
    def deciding(self) -> tuple[str, ...]:
        to_move = self.game.to_move
        return () if to_move is None else (to_move,)

    @property
    def round(self) -> int | None:
        return None   # the clock times each decision

    def apply(self, action: Action, colour: str) -> list[Event]:
        try:
            return self.game.apply(action, colour=colour)
        except IllegalAction as e:
            raise Illegal(e.code, e.message) from None

    def deadline(self) -> list[Event]:
        raise Illegal("no_deadline", "a Tongiaki decision has no deadline: its clock has a bot decide")

    def public_view(self) -> View:
        return self.game.view()   # the legal actions go only to the person deciding (`private`)

    def private(self, colour: str) -> list[Action] | None:
        return self.game.legal_actions() if colour == self.game.to_move else None

    def to_bytes(self) -> bytes:
        return self.game.to_bytes()

    def watch(self, check: Callable[[], None] | None) -> None:
        self.game.watch(check)   # R9's searches call it


class Tongiaki:
    """The game mode of RULES.md R1–R15."""

    name = "tongiaki"
    simultaneous = False

    def __repr__(self) -> str:
        return "Tongiaki()"

    def new(self, settings: Settings, seed: int) -> LiveGame:
        first = None if settings.first is None else settings.seat_colours(settings.first)[0]
        return TongiakiGame(Game.new(settings.colours(), seed=seed, variants=settings.variants, first=first))

    def load(self, state: bytes) -> LiveGame:
        return TongiakiGame(Game.from_bytes(state))

    def logged(self, action: Action) -> Action:
        return action   # public the moment it is played

    def report_wait(self, settings: Settings) -> float:
        return 0.0   # each decision is shown as it is made

    def drawn(self, events: list[Event]) -> list[str]:
        return [e["tile"] for e in events if e.get("type") == "tile_drawn"]

    def frames(self, state: bytes, log: list[dict[str, Any]]) -> None:
        return None   # rebuilt from the record's actions and the tiles as drawn (server/records/replay.py)

    def settings(self, data: dict[str, Any]) -> dict[str, Any]:
        """The variants (R14: two colours is for 2 seats), the seats, the starting seat (None: drawn, R3.2)
        and the clock per decision (None: no clock)."""
        variants = data.get("variants") or {}
        if not isinstance(variants, dict) or set(variants) - {"two_colours", "free_follow_up"} or not all(
                isinstance(v, bool) for v in variants.values()):
            raise Rejected("malformed", "variants must map two_colours/free_follow_up to booleans")
        two = variants.get("two_colours", False)
        seats = seat_count(data, 2 if two else 4)
        if two and seats != 2:
            raise Rejected("malformed", "the two-colours variant is for 2 seats (R14)")
        first = data.get("first")
        if first is not None and (not is_int(first) or not 0 <= first < seats):
            raise Rejected("malformed", "first must be null or a seat index")
        return {"seats": seats, "two_colours": two, "free_follow_up": variants.get("free_follow_up", False),
                "first": first, "clock": number(data, "clock", None, 1, 600, nullable=True)}

    def bot_action(self, state: bytes, colour: str, level: str, seed: int, spent: float = 0.0) -> Action:
        return make_bot(level, seed=seed, budget=turn_budget(spent)).choose(Game.from_bytes(state))
