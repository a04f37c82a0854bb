"""Shape and size checks of incoming payloads (docs/protocol.md §2 limits)."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]

from server.game import COLOURS
from server.lobby.errors import Rejected
from server.lobby.text import clean

MAX_PAYLOAD = 4096
MAX_DEPTH = 8


def payload(args: tuple[Any, ...]) -> dict[str, Any]:
    """The single map argument of a request, checked for size and depth."""
    if len(args) != 1 or not isinstance(args[0], dict):
        raise Rejected("malformed", "a request carries exactly one map")
    data = args[0]
    # depth first, without recursion: a payload nested hundreds of levels deep gets this answer, never
    # a RecursionError (and its traceback in the log)
    if _deeper_than(data, MAX_DEPTH):
        raise Rejected("malformed", f"the payload is nested deeper than {MAX_DEPTH}")
    try:
        size = len(msgpack.packb(data, use_bin_type=True))
    except (TypeError, ValueError, OverflowError):
        raise Rejected("malformed", "the payload is not plain data") from None
    if size > MAX_PAYLOAD:
        raise Rejected("too_large", f"the payload is {size} bytes, the limit is {MAX_PAYLOAD}")
    if not all(isinstance(k, str) for k in data):
        raise Rejected("malformed", "payload keys must be strings")
    return data


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether maps and lists nest more than `limit` levels (a map holding a number is one level).
    Iterative, and it stops at the first container past the limit."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth + 1 > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def room_id(data: dict[str, Any]) -> str:
    """A room id: a non-empty string of at most 64 characters."""
    value = data.get("room")
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise Rejected("malformed", "room must be a room id string")
    return value


def integer(data: dict[str, Any], key: str) -> int:
    """A non-negative 32-bit integer."""
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
        raise Rejected("malformed", f"{key} must be a non-negative integer")
    return value


def optional_integer(data: dict[str, Any], key: str) -> int | None:
    """`integer`, or None when the key is absent or null."""
    return None if data.get(key) is None else integer(data, key)


def optional_colour(data: dict[str, Any], key: str = "colour") -> str | None:
    """One of the game's colours (server.game.COLOURS), or None when the key is absent or null."""
    value = data.get(key)
    if value is not None and value not in COLOURS:
        raise Rejected("malformed", f"{key} must be one of {', '.join(COLOURS)}")
    return value


def boolean(data: dict[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise Rejected("malformed", f"{key} must be a boolean")
    return value


def text(data: dict[str, Any], key: str, limit: int) -> str:
    """A non-empty text, whitespace-trimmed, at most `limit` characters, no control characters."""
    value = data.get(key)
    if not isinstance(value, str):
        raise Rejected("malformed", f"{key} must be a string")
    value = clean(value)
    if not value:
        raise Rejected("malformed", f"{key} must not be empty")
    if len(value) > limit:
        raise Rejected("too_large", f"{key} is longer than {limit} characters")
    return value
