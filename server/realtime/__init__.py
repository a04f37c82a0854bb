"""The realtime layer: the Socket.IO namespace of protocol version 1 (docs/protocol.md)."""

from server.realtime.namespace import PROTOCOL, SocketOutbox, TableNamespace, room_channel
from server.realtime.transport import use_deflate

__all__ = ["PROTOCOL", "SocketOutbox", "TableNamespace", "room_channel", "use_deflate"]
