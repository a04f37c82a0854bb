"""Rejections with stable codes: the realtime layer turns them into `{ok: false, error}` acks."""

from __future__ import annotations

CODES = frozenset({
    "malformed", "too_large", "unknown_event", "rate_limited", "no_room", "not_in_room", "not_host",
    "not_waiting", "not_playing", "seat_taken", "not_seated", "seats_empty", "not_your_turn",
    "stale_version", "illegal_action", "not_finished", "internal", "reserved_event", "name_taken",
    "too_many_rooms", "too_many_search_bots", "search_bots_busy", "too_many_people", "barred", "unavailable",
    "not_the_lesson",
})


class Rejected(Exception):
    """A request the lobby refuses; nothing was changed. `code` is one of docs/protocol.md's codes."""

    def __init__(self, code: str, message: str, **extra: object) -> None:
        assert code in CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extra = extra

    def to_wire(self) -> dict[str, object]:
        """The `error` map of a failed acknowledgement."""
        return {"code": self.code, "message": self.message, **self.extra}
