"""The msgpack Socket.IO packet, decoded defensively: a frame that is not a well-formed packet becomes the
event `__malformed__` (answered with a `malformed` error when it carried an ack id) instead of an
exception in the transport. So do the packets a client has no business sending: CONNECT_ERROR (4),
BINARY_EVENT (5) and BINARY_ACK (6) (msgpack carries binary inline, and python-socketio would otherwise
wait for attachments that never come), and ACK (3) (the server never asks a client for one). An event
named like one of Socket.IO's own (`connect`, `disconnect`, ...) becomes `__reserved__`: it never
reaches the connection handlers. Each packet that does not decode is also noted in `FAILURES`, for the
transport to count against its socket (transport.count_malformed), whether or not the socket has
connected to the namespace yet."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

import msgpack  # type: ignore[import-untyped]
from socketio import packet
from socketio.msgpack_packet import MsgPackPacket

MALFORMED = "__malformed__"
RESERVED = "__reserved__"
RESERVED_NAMES = frozenset({"connect", "connect_error", "disconnect", "__disconnect_final", "message", "*",
                            MALFORMED, RESERVED})
CLIENT_KINDS = frozenset({packet.CONNECT, packet.DISCONNECT, packet.EVENT})
FAILURES: ContextVar[list[str] | None] = ContextVar("wire_failures", default=None)
"""Why each packet decoded in this context failed (a list the message's handler sets, or None: not noted)."""


class WirePacket(MsgPackPacket):  # type: ignore[misc]
    """python-socketio's msgpack packet with strict shape checks on decoding."""

    def decode(self, encoded_packet: Any) -> None:
        try:
            decoded = msgpack.loads(encoded_packet, strict_map_key=False, ext_hook=self.__class__.ext_hook)
            kind, nsp, data, ack = decoded["type"], decoded["nsp"], decoded.get("data"), decoded.get("id")
            if not isinstance(kind, int) or isinstance(kind, bool) or not 0 <= kind <= 6:
                raise ValueError("packet type")
            if not isinstance(nsp, str):
                raise ValueError("namespace")
            if ack is not None and (not isinstance(ack, int) or isinstance(ack, bool) or ack < 0):
                raise ValueError("ack id")
            if kind not in CLIENT_KINDS:
                raise ValueError("a packet type clients do not send")
            if kind == packet.EVENT and (not isinstance(data, list) or not data or not isinstance(data[0], str)):
                raise ValueError("event data")
        except Exception as e:  # anything undecodable: hand it on as one malformed request
            failures = FAILURES.get()
            if failures is not None:
                failures.append(f"{type(e).__name__} {str(e)[:40]}")
            self.packet_type, self.namespace, self.id, self.data = packet.EVENT, "/", None, [MALFORMED]
            if isinstance(locals().get("ack"), int) and not isinstance(locals()["ack"], bool):
                self.id = locals()["ack"]
            return
        if kind == packet.EVENT and data[0] in RESERVED_NAMES:
            data = [RESERVED, data[0][:40]]
        self.packet_type, self.namespace, self.data, self.id = kind, nsp, data, ack
