"""A hand-made websocket client for attacks: it speaks Engine.IO 4 / Socket.IO 5 with msgpack frames
written byte by byte, so it can send what no well-behaved client library would (reserved event names,
packet types a client never sends, empty frames) and can stop reading its socket altogether (a slow
reader), with a tiny receive buffer. Used by tests/realtime/test_hostile.py and bench/soak.py."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from typing import Any

import msgpack


class RawSocket:
    """One websocket to /socket.io/ on loopback, opened with `await RawSocket.open(url, auth)`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.sid = ""

    @classmethod
    async def open(cls, url: str, auth: dict[str, Any] | None = None, rcvbuf: int | None = None,
                   connect: bool = True, source: str | None = None) -> RawSocket:
        """`source`: a loopback address to connect from (127.0.0.2, ...: another client address)."""
        host, port = url.removeprefix("http://").split(":")
        sock = socket.socket()
        if source:
            sock.bind((source, 0))
        if rcvbuf:  # before connecting, so the TCP window stays small (a reader that hardly reads)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
        reader, writer = await asyncio.open_connection(sock=sock)
        try:
            return await cls._handshake(reader, writer, host, port, auth, connect)
        except BaseException:
            writer.transport.abort()   # refused: the connection is not kept open
            raise

    @classmethod
    async def _handshake(cls, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, port: str,
                         auth: dict[str, Any] | None, connect: bool) -> RawSocket:
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {host}:{port}\r\n"
                      f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        raw = cls(reader, writer)
        opened = await raw.frame()
        assert isinstance(opened, str) and opened.startswith("0"), opened
        if connect:
            await raw.packet({"type": 0, "nsp": "/", "data": auth or {"protocol": 2}})
            answer = await raw.next_packet()
            assert answer["type"] == 0, answer
            raw.sid = answer["data"]["sid"]
        return raw

    # -- frames ------------------------------------------------------------------------------------------
    def send_frame(self, payload: bytes, opcode: int) -> None:
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        self.writer.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    async def frame(self) -> str | bytes | None:
        """The next data frame (text as str, binary as bytes); None when the server closed."""
        while True:
            try:
                b0, b1 = await self.reader.readexactly(2)
                n = b1 & 0x7F
                if n == 126:
                    n = struct.unpack("!H", await self.reader.readexactly(2))[0]
                elif n == 127:
                    n = struct.unpack("!Q", await self.reader.readexactly(8))[0]
                data = await self.reader.readexactly(n)
            except (asyncio.IncompleteReadError, ConnectionError):
                return None
            opcode = b0 & 0x0F
            if opcode == 8:
                return None
            if opcode == 1:
                text = data.decode()
                if text == "2":  # Engine.IO ping: answer it, as the attacker does
                    await self.text("3")
                    continue
                return text
            if opcode == 2:
                return data

    async def text(self, text: str) -> None:
        self.send_frame(text.encode(), 1)
        await self.writer.drain()

    async def binary(self, data: bytes) -> None:
        self.send_frame(data, 2)
        await self.writer.drain()

    # -- Socket.IO packets (msgpack) --------------------------------------------------------------------
    async def packet(self, packet: dict[str, Any]) -> None:
        await self.binary(msgpack.packb(packet, use_bin_type=True))

    async def emit(self, event: str, *args: Any, ack: int | None = None) -> None:
        packet: dict[str, Any] = {"type": 2, "nsp": "/", "data": [event, *args]}
        if ack is not None:
            packet["id"] = ack
        await self.packet(packet)

    async def next_packet(self, timeout: float = 10.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                data = await self.frame()
                if data is None:
                    raise ConnectionError("closed by the server")
                if isinstance(data, bytes):
                    decoded: dict[str, Any] = msgpack.unpackb(data, raw=False, strict_map_key=False)
                    return decoded
                if data.startswith("4"):
                    return dict(json.loads(data[1:]))

    async def answer(self, ack: int, timeout: float = 10.0) -> dict[str, Any]:
        """The acknowledgement with id `ack` (events in between are skipped)."""
        async with asyncio.timeout(timeout):
            while True:
                packet = await self.next_packet(timeout)
                if packet["type"] == 3 and packet.get("id") == ack:
                    result: dict[str, Any] = packet["data"][0]
                    return result

    async def closed(self, timeout: float = 10.0) -> bool:
        """Reads until the server closes the connection (True) or `timeout` passes (False)."""
        try:
            async with asyncio.timeout(timeout):
                while await self.frame() is not None:
                    pass
                return True
        except TimeoutError:
            return False

    def close(self) -> None:
        self.writer.transport.abort()
