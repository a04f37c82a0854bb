"""Web push (server/notify/push.py) up to the signed request: a loopback HTTP receiver stands in for the
push service at the subscription's endpoint (the real services cannot be reached from the test machines).
It checks the request as a push service does (RFC 8030, 8291, 8292): the VAPID signature against the
public key `tongiaki vapid` printed, the audience, the TTL; and decrypts the body as the browser would."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import http_ece
import pytest
import redis.asyncio as redis
from aiohttp import web
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from notifykit import api, running
from test_notify import BASE, expedition, my_order

from server import __main__ as cli
from server.notify.push import Pusher, load_key
from server.notify.reach import Reaches
from server.notify.words import say

ROOT = Path(__file__).resolve().parents[2]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's side of a subscription: its key pair and auth secret (RFC 8291)."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                     serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}


def verify_vapid(header: str, audience: str) -> dict[str, Any]:
    """The claims of a `vapid t=<JWT>, k=<key>` Authorization, its ES256 signature checked with k."""
    scheme, _, rest = header.partition(" ")
    assert scheme == "vapid", header
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))   # raises when forged
    body = json.loads(unb64(claims))
    assert body["aud"] == audience and body["exp"] > time.time()
    return {**body, "k": parts["k"]}


def test_the_vapid_command_makes_a_key_once(tmp_path, capsys):
    path = tmp_path / "vapid.pem"
    made = subprocess.run([sys.executable, "-m", "server", "vapid", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    public = made.stdout.strip().rsplit(" ", 1)[1]
    assert len(unb64(public)) == 65 and unb64(public)[0] == 4   # an uncompressed P-256 point
    assert path.stat().st_mode & 0o777 == 0o600
    assert Pusher(load_key(path), "mailto:ops@example.org").public == public
    with pytest.raises(SystemExit) as again:   # a key browsers subscribed with is never overwritten
        cli.main(["vapid", str(path)])
    assert again.value.code == 1 and "exists" in capsys.readouterr().err


async def test_a_push_message_is_signed_encrypted_and_readable_by_the_browser(config, redis_url, prefix, clients,
                                                                             tmp_path):
    from tablekit import InProcessServer

    from server.notify.push import make_keys

    public = make_keys(tmp_path / "vapid.pem")
    got: list[tuple[Any, bytes, str]] = []
    answer = {"status": 201}

    async def receive(request: web.Request) -> web.Response:
        got.append((request.headers.copy(), await request.read(), request.path))
        return web.Response(status=answer["status"])
    receiver = web.Application()
    receiver.router.add_post("/push/{id}", receive)
    runner = web.AppRunner(receiver)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    endpoint_base = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    server = await InProcessServer(config.with_(vapid_key=tmp_path / "vapid.pem", public_url=BASE,
                                                notifier=False)).start()
    browser = Browser()
    try:
        status, me = await api(server.url, "x", "GET", "/api/notify/status")
        assert status == 200 and me == {"mail": False, "push": True, "vapid": public}
        room, (ana, ben) = await expedition(server, clients, ["Ana", "Ben"], clock=600)
        token = ana.session["token"]
        # the API takes only a known push service's https endpoint: never one the server would call inside
        for endpoint in (f"{endpoint_base}/push/1", "https://127.0.0.1/x", "https://fcm.googleapis.com.evil.org/x"):
            status, refused = await api(server.url, token, "POST", "/api/notify/push",
                                        {"subscription": browser.subscription(endpoint), "lang": "he"})
            assert status == 400 and refused["error"]["code"] == "malformed", endpoint
        status, ok = await api(server.url, token, "POST", "/api/notify/push",
                               {"subscription": browser.subscription("https://fcm.googleapis.com/fcm/send/abc"),
                                "lang": "he"})
        assert status == 200 and ok["reach"]["push"] is True
        # the loopback receiver stands in for the push service: its URL is stored as a browser's would be
        reaches = Reaches(redis.Redis.from_url(redis_url), prefix)
        await reaches.set_push(ana.session["person"], browser.subscription(f"{endpoint_base}/push/ana"), "he")
        async with running(redis_url, prefix, BASE, None, pusher=Pusher(load_key(tmp_path / "vapid.pem"),
                                                                       "mailto:ops@example.org")) as notifier:
            await ana.ok("room_start", {"room": room})
            await ana.wait(lambda: my_order(ana, room) is not None)
            async with asyncio.timeout(15):
                while not got:
                    await asyncio.sleep(0.02)
            headers, body, path = got[0]
            assert path == "/push/ana"
            claims = verify_vapid(headers["Authorization"], endpoint_base)
            assert claims["sub"] == "mailto:ops@example.org" and claims["k"] == public
            assert headers["Content-Encoding"] == "aes128gcm" and int(headers["TTL"]) > 0
            assert headers["Topic"] == room and headers["Urgency"] == "normal"
            plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
            message = json.loads(plain)
            assert message["title"] == say("he", "turn.subject", table="Days", turn=1)
            assert message["url"] == f"{BASE}/#/room/{room}" and message["lang"] == "he"
            async with asyncio.timeout(5):
                while notifier.sent < 1:   # counted once the push service's answer is in
                    await asyncio.sleep(0.02)
            # the push service says the subscription is gone (410): it is forgotten, nothing is retried
            answer["status"] = 410
            assert (await ana.call("act", {"room": room, "v": ana.v(room), "action": {"type": "pass"}}))["ok"]
            assert (await ben.call("act", {"room": room, "v": ben.v(room), "action": {"type": "pass"}}))["ok"]
            async with asyncio.timeout(15):
                while (await reaches.get(ana.session["person"])).push is not None:
                    await asyncio.sleep(0.02)
            assert len(got) == 2 and notifier.sent == 1
        await reaches.redis.aclose()
    finally:
        await server.stop()
        await runner.cleanup()
