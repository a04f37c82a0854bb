"""How to play: short lessons, each a position built with the engine, in which the learner makes real
moves that the engine checks (docs/protocol.md §13)."""

from server.tutorial.lessons import LESSONS, Lesson
from server.tutorial.sessions import Tutorials

__all__ = ["LESSONS", "Lesson", "Tutorials"]
