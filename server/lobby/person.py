"""Who sent a request, and where the lobby sends what clients must see."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Person:
    """Who sent a request: the public id and display name behind a session token, and the client address
    it came from (empty when unknown: no cap per address applies)."""

    id: str
    name: str
    address: str = ""


class Outbox(Protocol):
    """Where the lobby sends what clients must see (the realtime layer implements it). `local`: only
    this process's sockets need it (no other process has a socket in the room)."""

    async def room_changed(self, room_id: str, state: dict[str, Any]) -> None: ...
    async def game_message(self, room_id: str, message: dict[str, Any], *, local: bool = False) -> None: ...
    async def legal(self, room_id: str, person: str, payload: dict[str, Any], *, local: bool = False) -> None: ...
    async def lobby_changed(self, update: dict[str, Any]) -> None: ...
    async def chat_line(self, room_id: str, payload: dict[str, Any]) -> None: ...


class Facts(Protocol):
    """Where the authority tells what people away from the table may want to hear of (the notifier,
    server/notify/, reads them): facts only, never a secret, and nothing waits on what becomes of them."""

    async def round_began(self, room_id: str, v: int, deciding: tuple[str, ...], began: float,
                          clock: float | None) -> None: ...
    async def game_ended(self, room_id: str) -> None: ...


@dataclass(frozen=True)
class Timings:
    """The lobby's knobs (from Config)."""

    tick: float = 0.05
    presence_ttl: float = 15.0
    finished_ttl: float = 3600.0
    waiting_ttl: float = 3 * 3600.0
    patch_log: int = 200
    chat_log: int = 50
    rooms_per_person: int = 3          # open rooms (waiting or playing) one person may have created
    search_bots: int = 24              # search bots in all playing rooms together (server/bots/worker.py)
    rooms_per_address: int = 10        # and all the people of one client address together
    listing: int = 500                 # rooms in the lobby listing at most (real tables first)

    @property
    def ttls(self) -> dict[str, float]:
        return {"waiting": self.waiting_ttl, "finished": self.finished_ttl}
