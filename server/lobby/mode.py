"""The contract between the game authority and a rule set: what the authority needs of a game mode, and
nothing more. The authority loads, checks, applies, commits and broadcasts through it alone, so a second
rule set (Expeditions, say) plugs in beside Tongiaki by implementing these two protocols.

Decisions are taken one at a time: `to_move` names the one colour whose decision is pending, and only
that seat may act. Simultaneous secret orders fit as a sequence of such decisions whose effects the
public view hides until every order is in (the view is the mode's to shape)."""

from __future__ import annotations

from typing import Any, Protocol

from server.lobby.settings import Settings

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


class Illegal(Exception):
    """An action a game refused (the game is unchanged); `reason` is the rule set's own stable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


class LiveGame(Protocol):
    """One game in play, as the authority sees it."""

    @property
    def to_move(self) -> str | None:
        """The colour whose decision is pending (None: the game is over)."""
        ...

    def apply(self, action: Action, colour: str | None) -> list[Event]:
        """Plays `action` for `colour`; the events it caused. Raises Illegal (nothing changed)."""
        ...

    def public_view(self) -> View:
        """The view every player and spectator gets (docs/protocol.md §5): no legal actions in it."""
        ...

    def legal_actions(self) -> list[Action]:
        """The legal actions of the pending decision (only the person deciding gets them)."""
        ...

    def to_bytes(self) -> bytes:
        """The whole state, secrets included (server-side storage only)."""
        ...


class GameMode(Protocol):
    """A rule set: how to start a game for a room's settings, and how to load a stored one."""

    def new(self, settings: Settings, seed: int) -> LiveGame:
        """A new game for these settings; `seed` never leaves the server (R15)."""
        ...

    def load(self, state: bytes) -> LiveGame:
        """The game stored as `state` (LiveGame.to_bytes)."""
        ...

    def bot_action(self, state: bytes, level: str, seed: int) -> Action:
        """A legal action for the pending decision of the game stored as `state`, chosen by the mode's bot
        of `level` from `seed`. Pure, and run in a bot worker's process (server/bots/worker.py)."""
        ...
