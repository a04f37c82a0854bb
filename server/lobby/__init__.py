"""Rooms and seats (lobby), the game authority, the timers, and the Redis store of rooms, games, sessions,
presence and timers (store.py). The authority plays a game through a game mode (mode.py); Tongiaki's is
tongiaki.py, Expeditions' expeditions.py."""

from server.lobby.authority import Authority
from server.lobby.errors import Rejected
from server.lobby.lobby import Lobby
from server.lobby.mode import GameMode, Illegal, LiveGame
from server.lobby.person import Outbox, Person, Timings
from server.lobby.rooms import FINISHED, PLAYING, WAITING, Room, Seat
from server.lobby.settings import Settings
from server.lobby.store import Store
from server.lobby.timers import Timers

__all__ = ["FINISHED", "PLAYING", "WAITING", "Authority", "GameMode", "Illegal", "LiveGame", "Lobby", "Outbox",
           "Person", "Rejected", "Room", "Seat", "Settings", "Store", "Timers", "Timings"]
