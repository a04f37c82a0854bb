"""The game modes a room may play, by the name its settings give (`Settings.game`): the registry the composition
root (server/app.py, server/__main__.py) hands the lobby, the authority and the bot workers."""

from __future__ import annotations

import time

from server.bots.worker import BotJob, Think
from server.lobby.expeditions import ExpeditionsMode
from server.lobby.mode import Action, GameMode
from server.lobby.tongiaki import Tongiaki

MODES: dict[str, GameMode] = {"tongiaki": Tongiaki(), "expeditions": ExpeditionsMode()}


def bot_thinking(modes: dict[str, GameMode]) -> Think:
    """A bot worker's thinking: the job's mode chooses, told how long its colour's turn has been thought
    about already (a search bot spends a budget per turn, not per decision)."""
    def think(job: BotJob, state: bytes, seed: int) -> Action:
        spent = max(0.0, time.time() - job.turn) if job.turn else 0.0
        return modes[job.game].bot_action(state, job.colour, job.level, seed, spent)
    return think
