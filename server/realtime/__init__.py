"""The realtime layer: the Socket.IO namespace of protocol version 2 (docs/protocol.md)."""

from server.realtime.namespace import PROTOCOL, SocketOutbox, TableNamespace, person_channel, room_channel
from server.realtime.transport import Websockets, install_websocket

__all__ = ["PROTOCOL", "SocketOutbox", "TableNamespace", "person_channel", "room_channel", "Websockets",
           "install_websocket"]
