"""The game modes a room may play, by the name its settings give (server/lobby/settings.py GAMES)."""

from __future__ import annotations

from server.lobby.expeditions import ExpeditionsMode
from server.lobby.mode import GameMode
from server.lobby.tongiaki import Tongiaki

MODES: dict[str, GameMode] = {"tongiaki": Tongiaki(), "expeditions": ExpeditionsMode()}
