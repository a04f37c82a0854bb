"""The realtime layer: the wire of protocol version 2 (docs/protocol.md): the Socket.IO namespace
(namespace.py), requests parsed into typed values (requests.py), the packet codec (wire.py), the view
patch format (patch.py) and the websocket transport (transport.py)."""
