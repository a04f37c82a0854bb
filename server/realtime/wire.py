"""The msgpack Socket.IO packet, decoded defensively: a frame that is not a well-formed packet becomes the
event `__malformed__` (answered with a `malformed` error when it carried an ack id) instead of an
exception in the transport."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]
from socketio import packet
from socketio.msgpack_packet import MsgPackPacket

MALFORMED = "__malformed__"


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
            if kind in (packet.EVENT, packet.BINARY_EVENT) and (
                    not isinstance(data, list) or not data or not isinstance(data[0], str)):
                raise ValueError("event data")
            if kind in (packet.ACK, packet.BINARY_ACK) and not isinstance(data, list):
                raise ValueError("ack data")
        except Exception:  # anything undecodable: hand it on as one malformed request
            self.packet_type, self.namespace, self.id, self.data = packet.EVENT, "/", None, [MALFORMED]
            if isinstance(locals().get("ack"), int) and not isinstance(locals()["ack"], bool):
                self.id = locals()["ack"]
            return
        self.packet_type, self.namespace, self.data, self.id = kind, nsp, data, ack
