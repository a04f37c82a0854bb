"""The realtime layer: the wire of protocol version 2 (docs/protocol.md): the Socket.IO namespace
(namespace.py), requests parsed into typed values (requests.py), the packet codec (wire.py) and the
websocket transport (transport.py). The view patch format it sends is server/patch.py, below the layers that
build patches (the authority, the replays)."""
