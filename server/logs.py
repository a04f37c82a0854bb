"""Logging set-up: plain text or one JSON object per line (`--log-format json`), and a per-client budget
of log lines so nothing a client sends can make the log grow faster than a few lines a minute."""

from __future__ import annotations

import json
import logging
import time
from collections import OrderedDict
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """`{"time", "level", "logger", "message", ["exception"], [extra fields]}` per record, one per line."""

    RESERVED = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                    + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in self.RESERVED and not key.startswith("_"):
                entry[key] = value if isinstance(value, str | int | float | bool | None) else repr(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str, fmt: str) -> None:
    """The root logger at `level` ("info", ...) in `fmt` ("text" or "json"), on stderr."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


class LogBudget:
    """At most `lines` log lines per `window` seconds for each client (by key); beyond that they are
    counted and one line says how many were dropped when the window turns. Bounded in memory: only the
    most recent `keys` clients are remembered."""

    def __init__(self, lines: int = 5, window: float = 60.0, keys: int = 4096) -> None:
        self.lines, self.window, self.keys = lines, window, keys
        self._spent: OrderedDict[str, list[float]] = OrderedDict()   # key → [window start, lines, dropped]

    def allow(self, key: str, now: float | None = None) -> bool:
        """Whether one more line about client `key` may be written now."""
        now = time.monotonic() if now is None else now
        spent = self._spent.get(key)
        if spent is None or now - spent[0] >= self.window:
            if spent is not None and spent[2]:
                logging.getLogger(__name__).warning("%d log lines about client %s were dropped",
                                                    int(spent[2]), key)
            spent = [now, 0.0, 0.0]
            self._spent[key] = spent
            self._spent.move_to_end(key)
            while len(self._spent) > self.keys:
                self._spent.popitem(last=False)
        if spent[1] >= self.lines:
            spent[2] += 1
            return False
        spent[1] += 1
        return True
