"""The game: one table of Tongiaki behind the contract of docs/engine.md.

`Game` is the rules (rules.py) with creation, sampling, views and persistence added. Every public call
takes and returns plain data. The only randomness is the stack, shuffled once from the seed at set-up (R3)
and drawn from the top; nothing that leaves through a view, an event or an error reveals its order (R15).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import persistence, position, sampling
from .catalogue import STACK_TILES, TONGA
from .errors import IllegalAction
from .geometry import START
from .phases import Phase
from .rules import BOATS, MAX_ROYAL, VARIANTS, Rules
from .views import pending_decision, public_view
from .wire import Action

__all__ = ["BOATS", "MAX_ROYAL", "VARIANTS", "Game"]


class Game(Rules):
    """One table of Tongiaki. See docs/engine.md for the contract."""

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        colours: list[str],
        seed: int,
        variants: dict[str, bool] | None = None,
        first: str | None = None,
    ) -> Game:
        """A new game (R3): Tonga placed, the other tiles shuffled once from `seed`, set-up pending."""
        game = cls()
        game.set_colours(colours, variants)
        game.seed = int(seed)
        rng = random.Random(game.seed)
        stack = list(STACK_TILES)
        rng.shuffle(stack)
        game.stack = stack
        if first is None:
            game.first = rng.randrange(len(game.colours))
        elif first in game.colours:
            game.first = game.colours.index(first)
        else:
            raise ValueError(f"first player {first!r} is not one of {game.colours}")
        game.place(TONGA, START, 0)
        game.supply = {c: BOATS for c in game.colours}
        game.royal_founded = {c: 0 for c in game.colours}
        game.active = game.first
        game.phase = Phase.SETUP
        game.setup_left = 2 * len(game.colours)
        return game

    @classmethod
    def replay(
        cls,
        colours: list[str],
        seed: int,
        actions: list[Action],
        variants: dict[str, bool] | None = None,
        first: str | None = None,
    ) -> Game:
        """Rebuild a game from its seed and action log."""
        game = cls.new(colours, seed, variants=variants, first=first)
        for action in actions:
            game.apply(action)
        return game

    @property
    def decision(self) -> dict[str, Any] | None:
        """The pending decision: who decides what, with what a client needs to present it."""
        return pending_decision(self)

    # ------------------------------------------------------------------ bots

    def sample_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly at random without listing them all (for bots and playouts):
        a uniform draw among the candidates, redrawn while it is one the R9 filter forbids."""
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "the game is over: there is nothing to choose", where=self.situation())
        return self.issue(sampling.sample(self, rng))

    # ------------------------------------------------------------------ long work

    def watch(self, check: Callable[[], None] | None) -> None:
        """Have `check` called now and then while a call searches long (R9), every few hundred units of
        search work; None: nobody. `check` may raise to abandon the call: the exception comes out of the
        call, and this game must be thrown away, for it may be half changed. The engine keeps no clock:
        a caller that must not wait long (a server's event loop) times the call in `check`."""
        self.chains.set_watch(check)

    # ------------------------------------------------------------------ views (R15)

    def view(self, colour: str | None = None) -> dict[str, Any]:
        """The public table (R15): the same for every seat and spectator. Never the stack's order."""
        return public_view(self, colour)

    # ------------------------------------------------------------------ persistence

    def to_bytes(self) -> bytes:
        """The whole state, secret stack included, as msgpack (server-side storage only)."""
        return persistence.to_bytes(self)

    @classmethod
    def from_bytes(cls, blob: bytes) -> Game:
        """Rebuild a game from `to_bytes` output."""
        game = cls()
        persistence.load(game, blob)
        return game

    def clone(self) -> Game:
        """An independent copy."""
        return Game.from_bytes(self.to_bytes())

    def imagine(self, seed: int) -> Game:
        """A copy whose unseen stack is reshuffled with `seed`: what a look-ahead bot may use. The real
        order stays secret; counts by kind are kept, so the copy ends the game at the same draw counts."""
        copy = self.clone()
        copy.stack.sort()   # R15: what is imagined depends on the remaining tiles (public), not their order
        random.Random(seed).shuffle(copy.stack)
        copy.seed = 0
        return copy

    # ------------------------------------------------------------------ positions

    @classmethod
    def from_position(cls, position_: dict[str, Any]) -> Game:
        """Build a position (tests, tutorials). See docs/engine.md, "Building positions"."""
        game = cls()
        position.build(game, position_)
        return game

    def to_position(self) -> dict[str, Any]:
        """The position of this game in the form `from_position` takes, which builds the same table: the
        inverse of `from_position`. Only a game waiting for a colour's turn has one (else PositionError).
        See docs/engine.md, "Building positions"."""
        return position.describe(self)
