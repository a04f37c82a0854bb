"""Rooms, seats, settings, the lifecycle of a game, and the Redis store (the only code talking to Redis)."""

from server.lobby.errors import Rejected
from server.lobby.lobby import Lobby, Outbox, Person, Timings
from server.lobby.rooms import FINISHED, PLAYING, WAITING, Room, Seat
from server.lobby.settings import Settings
from server.lobby.store import Store

__all__ = ["FINISHED", "PLAYING", "WAITING", "Lobby", "Outbox", "Person", "Rejected", "Room", "Seat",
           "Settings", "Store", "Timings"]
