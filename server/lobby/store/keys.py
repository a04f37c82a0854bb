"""The names of the lobby's Redis keys and the form of their values: one `Keys` a deployment (its prefix),
shared by the key-family stores of this package, and the pipeline for one slot's commands. It sends no
command."""

from __future__ import annotations

from typing import Any, cast

import msgpack  # type: ignore[import-untyped]
from redis.exceptions import RedisError

from server.config import directory_tag

ROOM_KEYS = frozenset({"room", "game", "patches", "actions", "chat", "chatid", "watch", "rematch"})
"""The kinds of key that belong to one room (`Keys.key`: tagged with the room id, one cluster slot)."""

DIRECTORY_KEYS = frozenset({"code", "lobby", "rooms", "timers", "procs", "lobby_gen", "hosted", "hosted_from",
                            "metrics_lease", "seated", "searching", "silent", "sweep"})
"""The kinds of key of the shared directory (`Keys.key`: tagged with the deployment, one cluster slot)."""

StoreUnavailable = RedisError
"""Raised by any store call when Redis cannot be reached (callers need not know it is Redis)."""


class Keys:
    """The key names of one deployment (`prefix`)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.directory = directory_tag(prefix)

    def __repr__(self) -> str:
        return f"Keys({self.prefix!r})"

    def key(self, *parts: str) -> str:
        """The key of `parts`: a room's own (`ROOM_KEYS`, with its id) carry the room id as their hash tag,
        `P:game:{id}`, so all of a room's keys are one Redis Cluster slot and the commit script touches
        one; the shared directory (`DIRECTORY_KEYS`) carries the deployment's tag (`directory_tag`), so
        the scripts over several of its keys touch one slot too; the rest (sessions, rate counts) are
        single keys, spread by their own names."""
        kind = parts[0] if parts else ""
        if kind in ROOM_KEYS and len(parts) == 2:
            return f"{self.prefix}:{kind}:{{{parts[1]}}}"
        if kind in DIRECTORY_KEYS:
            return ":".join((self.directory, *parts))
        return ":".join((self.prefix, *parts))


def pack(value: Any) -> bytes:
    return cast(bytes, msgpack.packb(value, use_bin_type=True))


def unpack(raw: bytes | str) -> Any:
    return msgpack.unpackb(raw, raw=False, strict_map_key=False)


def text(raw: object) -> str:
    """A Redis reply as text (replies are bytes: the client does not decode them)."""
    return raw.decode() if isinstance(raw, bytes) else str(raw)
