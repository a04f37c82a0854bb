"""Typed rejections: what a caller did wrong, with a stable code and a message naming the input."""

from __future__ import annotations

from typing import Any, ClassVar


class IllegalAction(Exception):
    """An action the engine refused. The game is unchanged.

    `code` is stable (`malformed`, `game_over`, `wrong_player`, `wrong_phase`, `illegal_choice`);
    `message` names the offending input; `action` is the input as given; `where` names the position the
    game was in (`str()` of the error includes it; `message` does not, so what a client is shown is
    unchanged).
    """

    CODES: ClassVar[tuple[str, ...]] = ("malformed", "game_over", "wrong_player", "wrong_phase", "illegal_choice")

    def __init__(self, code: str, message: str, action: Any = None, where: str | None = None) -> None:
        assert code in self.CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.action = action
        self.where = where
        """The position the action was refused in (turn, actions applied, the pending decision), or None."""

    def __str__(self) -> str:
        text = f"{self.code}: {self.message}"
        return text if self.where is None else f"{text} [at {self.where}]"


class PositionError(ValueError):
    """A position given to `Game.from_position` that cannot exist on the table."""
