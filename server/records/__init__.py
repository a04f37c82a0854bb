"""Game records: every finished game kept (settings, seats, the tiles as drawn, every action with its time
and who made it, the result), replayed with the engine, and served over HTTP (docs/protocol.md §12)."""

from server.records.record import HOW, GameRecord, logged
from server.records.replay import frames, rebuild
from server.records.store import Records

__all__ = ["HOW", "GameRecord", "Records", "frames", "logged", "rebuild"]
