"""The contract between the game authority and a rule set: what the authority needs of a game mode, and
nothing more. The authority loads, checks, applies, commits and broadcasts through it alone, so a second
rule set (Expeditions, say) plugs in beside Tongiaki by implementing these two protocols.

`deciding` names the colours whose decisions are pending: one at a time in Tongiaki, every colour whose
order is not in yet in Expeditions (simultaneous secret orders). A `round` is what a turn clock times:
each decision in Tongiaki, a whole turn of orders in Expeditions; an action may be sent at any version
of the current round (an order does not depend on the others' orders, which stay secret). What a colour
alone may see (its legal actions, its own pending order) goes to that seat's person only (`private`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from server.game.wire import Action as Action  # the engines' wire dicts, which the contract passes through
from server.game.wire import Event as Event
from server.lobby.settings import Settings

View = dict[str, Any]

WITHDRAW: Action = {"type": "withdraw"}
"""In a mode with simultaneous orders, the action that takes back the colour's pending order (the
`withdraw` event, docs/protocol.md §14); another action of a colour whose order is in replaces it."""


class Illegal(Exception):
    """An action a game refused (the game is unchanged); `reason` is the rule set's own stable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message

    def __reduce__(self) -> tuple[type[Illegal], tuple[str, str]]:
        # raised in an engine worker process (server/lobby/offload.py), it comes back through pickle
        return Illegal, (self.reason, self.message)


class LiveGame(Protocol):
    """One game in play, as the authority sees it."""

    @property
    def deciding(self) -> tuple[str, ...]:
        """The colours whose decisions are pending (empty: the game is over)."""
        ...

    @property
    def round(self) -> int | None:
        """The round of decisions pending, for the turn clock: it runs from when the round began. None:
        every action begins a new one."""
        ...

    def apply(self, action: Action, colour: str) -> list[Event]:
        """Plays `action` for `colour` (one of `deciding`); the events it caused. Raises Illegal (nothing
        changed)."""
        ...

    def deadline(self) -> list[Event]:
        """The round's deadline passed, in a mode with simultaneous orders: the round closes with the
        decisions in (the missing ones do nothing); the events it caused. Raises Illegal in a mode without
        one (in Tongiaki a bot decides for the late seat when its clock runs out)."""
        ...

    def public_view(self) -> View:
        """The view every player and spectator gets (docs/protocol.md §5): no legal actions in it."""
        ...

    def private(self, colour: str) -> Any:
        """What only `colour`'s person gets (their `legal` event): the legal actions of their pending
        decision, or None when there is nothing for them."""
        ...

    def to_bytes(self) -> bytes:
        """The whole state, secrets included (server-side storage only)."""
        ...

    def watch(self, check: Callable[[], None] | None) -> None:
        """Have `check` called now and then during long work (None: nobody); `check` may raise to
        abandon the call, and the game is then thrown away. A mode whose calls are all short may ignore
        it. The authority times its calls this way (server/lobby/offload.py)."""
        ...


class GameMode(Protocol):
    """A rule set: how to start a game for a room's settings, and how to load a stored one."""

    name: str
    """The mode's name in room settings ("tongiaki", "expeditions")."""

    simultaneous: bool
    """True: its rounds end at the turn clock's deadline (`LiveGame.deadline`), not by a bot playing for
    the late seat; and every colour of the round may act until it ends, whether or not its decision is
    in (a second decision replaces the first, `WITHDRAW` takes it back)."""

    def new(self, settings: Settings, seed: int) -> LiveGame:
        """A new game for these settings; `seed` never leaves the server (R15)."""
        ...

    def load(self, state: bytes) -> LiveGame:
        """The game stored as `state` (LiveGame.to_bytes)."""
        ...

    def report_wait(self, settings: Settings) -> float:
        """Seconds at most that the clock of a new round waits, after the round before resolved, for its
        report to be seen by every connected seated person (`Authority.report_seen`); 0: it starts at
        once."""
        ...

    def logged(self, action: Action) -> Action:
        """What the game's action log (and so its record) keeps of `action`: the action itself, or, in a
        mode whose decisions stay secret, only its kind."""
        ...

    def drawn(self, events: list[Event]) -> list[str]:
        """What of an action's events its line of the action log keeps for the replay: the tiles it drew,
        public once drawn (a record's `drawn`); none in a mode whose replay is rebuilt from the stored game
        (`frames`)."""
        ...

    def frames(self, state: bytes, log: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """The game's replay, as the table received it (`{v, events, patch}` from v = 0, docs/protocol.md
        §12), rebuilt from the stored game `state` (its secrets included: server-side only) and its action
        log `log` (lines of `records.logged`), however long the game, and showing only what was public:
        a line of a round not yet over is left out. None: the record's actions and the tiles they drew
        rebuild the replay without the stored game (server/records/replay.py), and the record keeps no
        frames. Pure and CPU-bound: called off the event loop."""
        ...

    def settings(self, data: dict[str, Any]) -> dict[str, Any]:
        """The mode's own part of a room's settings, read from a `room_create` payload (SettingsRules)."""
        ...

    def bot_action(self, state: bytes, colour: str, level: str, seed: int, spent: float = 0.0) -> Action:
        """A legal action for `colour`'s pending decision in the game stored as `state`, chosen by the
        mode's bot of `level` from `seed`; `spent`: seconds its turn has been thought about already (a
        level that thinks to a budget spends one per turn: server.bots.turn_budget). Pure, and run in a
        bot worker's process (server/bots/worker.py)."""
        ...
