"""The game: one table of Tongiaki behind the contract of docs/engine.md.

`Game` holds the rules (rules.py) and adds creation, sampling, views and persistence. Its public names are
exactly the contract (docs/engine.md, "Public surface"); the table's state and the rules' other calls stay
inside, where the engine's sibling modules reach them. Every public call takes and returns plain data. The
only randomness is the stack, shuffled once from the seed at set-up (R3) and drawn from the top; nothing
that leaves through a view, an event or an error reveals its order (R15).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import persistence, position, sampling
from .actions import ActionValue
from .catalogue import STACK_TILES, TONGA
from .errors import IllegalAction
from .geometry import START
from .phases import Phase
from .rules import BOATS, MAX_ROYAL, VARIANTS, Rules
from .views import pending_decision, public_view
from .wire import Action, Event

__all__ = ["BOATS", "MAX_ROYAL", "VARIANTS", "Game", "rules_of"]


class Game:
    """One table of Tongiaki. See docs/engine.md for the contract."""

    def __init__(self) -> None:
        # Use Game.new / replay / from_position / from_bytes.
        self._rules = Rules()

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
        rules = game._rules
        rules.set_colours(colours, variants)
        rules.seed = int(seed)
        rng = random.Random(rules.seed)
        stack = list(STACK_TILES)
        rng.shuffle(stack)
        rules.stack = stack
        if first is None:
            rules.first = rng.randrange(len(rules.colours))
        elif first in rules.colours:
            rules.first = rules.colours.index(first)
        else:
            raise ValueError(f"first player {first!r} is not one of {rules.colours}")
        rules.place(TONGA, START, 0)
        rules.supply = {c: BOATS for c in rules.colours}
        rules.royal_founded = {c: 0 for c in rules.colours}
        rules.active = rules.first
        rules.phase = Phase.SETUP
        rules.setup_left = 2 * len(rules.colours)
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

    # ------------------------------------------------------------------ the pending decision

    @property
    def colours(self) -> list[str]:
        """The colours playing, in seat (clockwise) order."""
        return list(self._rules.colours)

    @property
    def to_move(self) -> str | None:
        """Colour whose decision is pending, or None when the game is over."""
        return self._rules.to_move

    @property
    def decision(self) -> dict[str, Any] | None:
        """The pending decision: who decides what, with what a client needs to present it."""
        return pending_decision(self._rules)

    def legal_actions(self) -> list[Action]:
        """The complete list of legal actions for the pending decision (empty when the game is over)."""
        return self._rules.legal_actions()

    def legal_values(self) -> list[ActionValue]:
        """The legal actions as typed values (server.game.actions), in the order `legal_actions` lists them:
        hashable and comparable (a search keys its tree by them), and applied without being parsed again."""
        return self._rules.legal_values()

    def apply(self, action: Any, colour: str | None = None) -> list[Event]:
        """Apply one action of the pending colour (its dict, or its typed value of actions.py); return the
        events it caused, in order.

        Raises IllegalAction, changing nothing, when the action is malformed, out of phase or not legal.
        When `colour` is given it must be the colour to move.
        """
        return self._rules.apply(action, colour)

    def result(self) -> dict[str, Any] | None:
        """The final scores and ranking (R13), or None while the game runs."""
        return self._rules.result()

    @property
    def version(self) -> int:
        """Number of actions applied so far."""
        return self._rules.version

    @property
    def log(self) -> list[Action]:
        """The actions applied so far, in their wire form."""
        return self._rules.log

    # ------------------------------------------------------------------ bots

    def sample_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly at random without listing them all (for bots and playouts):
        a uniform draw among the candidates, redrawn while it is one the R9 filter forbids."""
        rules = self._rules
        if rules.phase == Phase.OVER:
            raise IllegalAction("game_over", "the game is over: there is nothing to choose", where=rules.situation())
        return rules.issue(sampling.sample(rules, rng))

    # ------------------------------------------------------------------ long work

    def watch(self, check: Callable[[], None] | None) -> None:
        """Have `check` called now and then while a call searches long (R9), every few hundred units of
        search work; None: nobody. `check` may raise to abandon the call: the exception comes out of the
        call, and this game must be thrown away, for it may be half changed. The engine keeps no clock:
        a caller that must not wait long (a server's event loop) times the call in `check`."""
        self._rules.chains.set_watch(check)

    # ------------------------------------------------------------------ views (R15)

    def view(self, colour: str | None = None) -> dict[str, Any]:
        """The public table (R15): the same for every seat and spectator. Never the stack's order."""
        return public_view(self._rules, colour)

    # ------------------------------------------------------------------ persistence

    def to_bytes(self) -> bytes:
        """The whole state, secret stack included, as msgpack (server-side storage only)."""
        return persistence.to_bytes(self._rules)

    @classmethod
    def from_bytes(cls, blob: bytes) -> Game:
        """Rebuild a game from `to_bytes` output."""
        game = cls()
        persistence.load(game._rules, blob)
        return game

    def clone(self) -> Game:
        """An independent copy."""
        return Game.from_bytes(self.to_bytes())

    def imagine(self, seed: int) -> Game:
        """A copy whose unseen stack is reshuffled with `seed`: what a look-ahead bot may use. The real
        order stays secret; counts by kind are kept, so the copy ends the game at the same draw counts."""
        copy = self.clone()
        rules = copy._rules
        rules.stack.sort()   # R15: what is imagined depends on the remaining tiles (public), not their order
        random.Random(seed).shuffle(rules.stack)
        rules.seed = 0
        return copy

    # ------------------------------------------------------------------ positions

    @classmethod
    def from_position(cls, position_: dict[str, Any]) -> Game:
        """Build a position (tests, tutorials). See docs/engine.md, "Building positions"."""
        game = cls()
        position.build(game._rules, position_)
        return game

    def to_position(self) -> dict[str, Any]:
        """The position of this game in the form `from_position` takes, which builds the same table: the
        inverse of `from_position`. Only a game waiting for a colour's turn has one (else PositionError).
        See docs/engine.md, "Building positions"."""
        return position.describe(self._rules)


def rules_of(game: Game) -> Rules:
    """The rules and table state inside `game`: the engine's inside (docs/engine.md, "Inside the engine"),
    not its contract. For tests of what the contract never shows (the stack's order, a tile's cached
    values, the R9 solver); a change made through it is the caller's to keep consistent."""
    return game._rules
