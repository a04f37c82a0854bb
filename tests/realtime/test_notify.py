"""Play over days (server/notify/): people away from the table hear of it by e-mail, through a real SMTP
server the test starts (aiosmtpd on loopback). Expeditions (EXPEDITIONS.md E3): every colour orders each
turn and the turn resolves when all orders are in or at the deadline, so an absent player holds the table
until the deadline, and hears of each turn, of the deadline coming (a share of the turn's time before it:
1/6 by default, checked in compose; half in the games here, so a loaded machine sends it in time), and of
the end."""

from __future__ import annotations

import asyncio
import html
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import redis.asyncio as redis
from notifykit import SENDER, api, follow, links, running, smtp_server
from tablekit import Client, people

from server.app import LOBBY
from server.notify.facts import stream_key
from server.notify.reach import Reaches
from server.notify.words import say

BASE = "https://play.example.org"   # the public address messages are written with (followed on the test's server)
TURNS = 10                          # E11: a game of passes ends at the end of turn 10
CLOCK = 4.0                         # a turn's deadline: its reminder half-way, 2 s from both its start and end


def my_order(client: Client, room: str) -> dict[str, Any] | None:
    held = client.legals.get(room)
    if held is None or held[0] != client.v(room):
        return None
    return held[1]


async def pass_every_turn(client: Client, room: str, told: Callable[[int], Awaitable[None]] | None = None,
                          first: int = 1) -> None:
    """Orders a pass (E4) each turn from turn `first` until the game is over: once `told(turn)` returns (the
    player heard of the turn: a turn resolved before the notifier read of it is not told, it is over), else
    at once."""
    while True:
        await client.wait(lambda: client.over(room) or (   # a turn to order in, this player's order not in
            (p := my_order(client, room)) is not None and p["options"] is not None and p["order"] is None
            and client.view(room)["turn"] >= first), timeout=60)
        if client.over(room):
            return
        turn = client.view(room)["turn"]
        if turn > 1:   # the report of the turn before is seen: the live turn's clock starts (§14)
            await client.call("report_seen", {"room": room, "turn": turn - 1})
        if told is not None:
            await told(turn)
        v = client.v(room)
        answer = await client.call("act", {"room": room, "v": v, "action": {"type": "pass"}})
        assert answer["ok"] or answer["error"]["code"] in ("stale_version", "not_your_turn", "not_playing"), answer
        await client.wait(lambda v=v: client.v(room) > v or client.over(room), timeout=60)


async def expedition(server: Any, clients: list[Client], names: list[str], clock: float) -> tuple[str, list[Client]]:
    """A waiting Expeditions room with everyone seated; its deadline shortened to `clock` seconds through
    the lobby (the wire's shortest is 30 s, E3's days are what is tested, not that floor)."""
    players = await people(server.url, clients, *names)
    host = players[0]
    made = await host.ok("room_create", {"name": "Days", "game": "expeditions", "seats": len(names), "clock": 30,
                                         "bot_pace": 0, "grace": 600})
    room = made["room"]["id"]
    await host.join(room)
    for i, p in enumerate(players[1:], start=1):
        await p.join(room)
        await p.ok("sit", {"room": room, "seat": i})

    def shorten(r: Any) -> bool:
        r.settings = replace(r.settings, clock=clock)
        return True
    await server.app[LOBBY].update(room, shorten)
    return room, players


async def reach_by_mail(url: str, inbox: Any, player: Client, address: str, lang: str) -> None:
    """The settings page's steps: an address, its confirmation message, the link in it (a page that asks),
    the button of that page."""
    token = player.session["token"]
    status, answer = await api(url, token, "POST", "/api/notify/email", {"email": address, "lang": lang})
    assert status == 200 and answer["reach"]["email_ok"] is False, answer
    await inbox.wait(lambda: len(inbox.to(address)) == 1)
    confirmation = inbox.to(address)[0]
    assert confirmation["Subject"] == say(lang, "confirm.subject")
    assert confirmation["From"].addresses[0].addr_spec == SENDER
    status, page = await follow(url, links(confirmation)[0], BASE)
    assert status == 200 and say(lang, "confirm.ask") in html.unescape(page)
    status, page = await follow(url, links(confirmation)[0], BASE, "POST")
    assert status == 200 and say(lang, "confirmed") in html.unescape(page)
    status, answer = await api(url, token, "GET", "/api/notify/me")
    assert answer["reach"]["email_ok"] is True and answer["reach"]["lang"] == lang
    inbox.messages.remove(confirmation)


def subjects(inbox: Any, address: str) -> list[str]:
    return [m["Subject"] for m in inbox.to(address)]


def told_by(inbox: Any, address: str, lang: str) -> Callable[[int], Awaitable[None]]:
    """Waits for the message of a turn to `address` (players who order when they hear of the turn)."""
    async def told(turn: int) -> None:
        await inbox.wait(lambda: say(lang, "turn.subject", table="Days", turn=turn) in subjects(inbox, address))
    return told


def turns_then_end(lang: str, reminded: int) -> list[str]:
    """A player's subjects when every turn was theirs: each turn, a reminder in each of the first
    `reminded` turns (away), then the end."""
    out = []
    for t in range(1, TURNS + 1):
        out.append(say(lang, "turn.subject", table="Days", turn=t))
        if t <= reminded:
            out.append(say(lang, "remind.subject", table="Days"))
    return out + [say(lang, "end.subject", table="Days")]


async def test_an_expedition_over_days_with_an_absent_player(config, redis_url, prefix, clients):
    """Three seats: Ana (fr, every turn) and Ben (de, daily digest) order at once; Cas (nl, only my move)
    is away for two turns, which end at the deadline, then comes back. Each receives exactly their
    messages, in order, in their language, with links that work; no message says an order."""
    from tablekit import InProcessServer

    async with smtp_server() as (inbox, port):
        server = await InProcessServer(config.with_(smtp_host="127.0.0.1", smtp_port=port, smtp_tls="off",
                                                    smtp_sender=SENDER, public_url=BASE, notifier=False)).start()
        try:
            async with running(redis_url, prefix, BASE, port, digest_every=4.0):
                room, (ana, ben, cas) = await expedition(server, clients, ["Ana", "Ben", "Cas"], clock=CLOCK)
                for player, address, lang in ((ana, "ana@example.org", "fr"), (ben, "ben@example.org", "de"),
                                              (cas, "cas@example.org", "nl")):
                    await reach_by_mail(server.url, inbox, player, address, lang)
                for player, mode in ((ana, "every"), (ben, "digest")):
                    status, _ = await api(server.url, player.session["token"], "POST", "/api/notify/table",
                                          {"room": room, "mode": mode})
                    assert status == 200
                token = cas.session["token"]
                await cas.close()   # Cas is away from the start (seat kept: the grace is long)
                started = time.monotonic()
                await ana.ok("room_start", {"room": room})
                told = told_by(inbox, "ana@example.org", "fr")
                playing = [asyncio.create_task(pass_every_turn(p, room, told)) for p in (ana, ben)]
                # turns 1 and 2 end at the deadline, Cas's order missing; Cas is reminded before each, and
                # is back once reminded of turn 2 (in time to order at once from turn 3)
                await inbox.wait(lambda: len(inbox.to("cas@example.org")) == 4, timeout=60)
                back = await Client("Cas again").connect(server.url, token=token)
                clients.append(back)
                await back.join(room)
                playing.append(asyncio.create_task(pass_every_turn(back, room, told, first=3)))
                await ana.wait(lambda: ana.view(room)["turn"] == 3, timeout=30)
                assert time.monotonic() - started >= 2 * CLOCK
                await asyncio.gather(*playing)
                assert ana.view(room)["turn"] == TURNS and ana.over(room)
                done = 2 * (TURNS + 1) + 2   # Ana's and Cas's turns and ends, Cas's two reminders
                await inbox.wait(lambda: len(inbox.to("ana@example.org")) + len(inbox.to("cas@example.org")) >= done)
                await inbox.wait(lambda: any(say("de", "digest.end", table="Days") in m.get_content()
                                             for m in inbox.to("ben@example.org")), timeout=10)

            assert subjects(inbox, "ana@example.org") == turns_then_end("fr", reminded=0)
            assert subjects(inbox, "cas@example.org") == turns_then_end("nl", reminded=2)
            # Ben's digests: every turn and the end once each, in order, in German, none before its time
            digests = inbox.to("ben@example.org")
            assert digests and all(m["Subject"] == say("de", "digest.subject") for m in digests)
            lines = [line for m in digests for line in m.get_content().splitlines() if line.startswith("- ")]
            assert lines == [say("de", "digest.turn", table="Days", turn=t) for t in range(1, TURNS + 1)] + \
                [say("de", "digest.end", table="Days")]
            assert len(digests) <= 6
            # the reminders say what is missing, in Cas's language
            reminder = inbox.to("cas@example.org")[1]
            assert say("nl", "remind.body", turn=1, table="Days") in reminder.get_content()
            for m in inbox.messages:
                body = m.get_content()
                assert m["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and m["List-Unsubscribe"]
                assert not any(secret in body for secret in ('"type"', "pass", "island", "moves", "state")), body
            assert len({m["Message-ID"] for m in inbox.messages}) == len(inbox.messages)
            # the links work: the table, the replay (the kept record), stop this table, stop everything
            end = inbox.to("ana@example.org")[-1]
            found = {k: next(u for u in links(end) if k in u) for k in ("#/room/", "#/replay/", "room=")}
            assert found["#/room/"] == f"{BASE}/#/room/{room}" and found["#/replay/"] == f"{BASE}/#/replay/{room}"
            status, _ = await follow(server.url, f"{BASE}/api/games/{room}", BASE)
            assert status == 200
            reaches = Reaches(redis.Redis.from_url(redis_url), prefix)
            try:
                # stop this table: the link asks (and changes nothing), its button posts
                status, page = await follow(server.url, found["room="], BASE)
                assert status == 200 and say("fr", "unsubscribe.ask") in html.unescape(page)
                assert (await reaches.get(ana.session["person"])).mode(room) == "every"
                status, page = await follow(server.url, found["room="], BASE, "POST")
                assert status == 200 and say("fr", "unsubscribed") in html.unescape(page)
                assert (await reaches.get(ana.session["person"])).mode(room) == "off"
                cas_links = links(inbox.to("cas@example.org")[0])
                stop_all = next(u for u in cas_links if "unsubscribe" in u and "room=" not in u)
                status, page = await follow(server.url, stop_all, BASE, "POST")
                assert status == 200 and say("nl", "unsubscribed.all") in html.unescape(page)
                assert (await reaches.get(back.session["person"])).channels() == []
            finally:
                await reaches.redis.aclose()
        finally:
            await server.stop()


async def notify_server(config: Any, port: int) -> Any:
    from tablekit import InProcessServer

    return await InProcessServer(config.with_(smtp_host="127.0.0.1", smtp_port=port, smtp_tls="off",
                                              smtp_sender=SENDER, public_url=BASE, notifier=False)).start()


async def test_a_notifier_started_again_sends_nothing_twice(config, redis_url, prefix, clients):
    """The notifier stops after turn 1's messages; the next one re-reads the stream from its start (what
    is left of it: facts read and acknowledged are trimmed; as after a crash before its acknowledgements)
    and sends only what was not sent."""
    async with smtp_server() as (inbox, port):
        server = await notify_server(config, port)
        try:
            room, (ana, cas) = await expedition(server, clients, ["Ana", "Cas"], clock=CLOCK)
            async with running(redis_url, prefix, BASE, port):
                await reach_by_mail(server.url, inbox, cas, "cas@example.org", "en")
            token = cas.session["token"]
            await cas.close()
            async with running(redis_url, prefix, BASE, port) as first:
                await ana.ok("room_start", {"room": room})
                told = told_by(inbox, "cas@example.org", "en")
                playing = asyncio.create_task(pass_every_turn(ana, room, told))
                await inbox.wait(lambda: len(inbox.to("cas@example.org")) == 2)   # turn 1, its reminder
            assert first.sent == 2   # the confirmation went through another notifier
            client = redis.Redis.from_url(redis_url)
            try:
                await client.xgroup_setid(stream_key(prefix), "notifiers", "0")   # every fact read again
            finally:
                await client.aclose()
            await ana.wait(lambda: ana.view(room)["turn"] == 2, timeout=30)   # turn 2 began while none ran
            async with running(redis_url, prefix, BASE, port) as second:
                await inbox.wait(lambda: len(inbox.to("cas@example.org")) == 4, timeout=60)   # turn 2, reminder
                back = await Client("Cas again").connect(server.url, token=token)
                clients.append(back)
                await back.join(room)
                await asyncio.gather(playing, pass_every_turn(back, room, told, first=3))
                await inbox.wait(lambda: len(inbox.to("cas@example.org")) == TURNS + 3)
            assert second.sent == TURNS + 1
            assert subjects(inbox, "cas@example.org") == turns_then_end("en", reminded=2)
            assert len({m["Message-ID"] for m in inbox.messages}) == len(inbox.messages)
        finally:
            await server.stop()


async def test_a_notifier_down_while_turns_end_catches_up_with_what_is_still_wanted(config, redis_url, prefix,
                                                                                   clients):
    """No notifier runs while turn 1 ends and Ana orders for turn 2. The one started then reads the facts
    it missed (the consumer group keeps them): Cas, whose order for turn 2 is still missing, hears of it
    (in Hebrew); turn 1 (over) and Ana's turn 2 (decided since) are not sent late. Read again from the
    start, the facts send nothing twice; and the stream keeps no fact once read and acknowledged."""
    async with smtp_server() as (inbox, port):
        server = await notify_server(config, port)
        try:
            room, (ana, cas) = await expedition(server, clients, ["Ana", "Cas"], clock=600)
            async with running(redis_url, prefix, BASE, port):
                await reach_by_mail(server.url, inbox, ana, "ana@example.org", "en")
                await reach_by_mail(server.url, inbox, cas, "cas@example.org", "he")
            await ana.ok("room_start", {"room": room})
            for p in (ana, cas):   # turn 1 ends while no notifier runs
                await p.wait(lambda p=p: my_order(p, room) is not None)
                assert (await p.call("act", {"room": room, "v": p.v(room), "action": {"type": "pass"}}))["ok"]
            await ana.wait(lambda: ana.view(room)["turn"] == 2 and my_order(ana, room) is not None)
            await ana.call("report_seen", {"room": room, "turn": 1})
            assert (await ana.call("act", {"room": room, "v": ana.v(room), "action": {"type": "pass"}}))["ok"]
            await asyncio.sleep(1.2)   # the facts are read late: more than `late` after they were told
            client = redis.Redis.from_url(redis_url)
            try:
                assert await client.xlen(stream_key(prefix)) >= 3   # turn 1, turn 2 (and its clock), kept
                async with running(redis_url, prefix, BASE, port, late=1.0) as back:
                    await inbox.wait(lambda: len(inbox.to("cas@example.org")) == 1)
                    async with asyncio.timeout(10):   # read and acknowledged: trimmed
                        while await client.xlen(stream_key(prefix)) > 0:
                            await asyncio.sleep(0.05)
                    await asyncio.sleep(1.5)   # time enough for anything else it would send
                assert subjects(inbox, "cas@example.org") == [say("he", "turn.subject", table="Days", turn=2)]
                assert inbox.to("ana@example.org") == [] and back.sent == 1
                await client.xgroup_setid(stream_key(prefix), "notifiers", "0")   # read again (nothing left)
                async with running(redis_url, prefix, BASE, port, late=1.0) as again:
                    await asyncio.sleep(1.5)
                assert again.sent == 0 and len(inbox.messages) == 1
            finally:
                await client.aclose()
        finally:
            await server.stop()


async def test_a_reminder_caught_up_on_past_its_deadline_is_not_sent(config, redis_url, prefix, clients):
    """Two reminders of a round still being played, both past their deadline (the authority has not played
    the round's end yet): Ana's, due five minutes ago (its notifier was down), is dropped as late; Cas's,
    due a moment ago (a notifier a little behind), is sent."""
    from server.lobby.store import Store
    from server.notify import compose
    from server.notify.outbox import Outbox
    from server.notify.turns import table as table_of

    async with smtp_server() as (inbox, port):
        server = await notify_server(config, port)
        client = redis.Redis.from_url(redis_url)
        try:
            room, (ana, cas) = await expedition(server, clients, ["Ana", "Cas"], clock=600)
            async with running(redis_url, prefix, BASE, port, late=5.0) as notifier:
                await reach_by_mail(server.url, inbox, ana, "ana@example.org", "en")
                await reach_by_mail(server.url, inbox, cas, "cas@example.org", "en")
                await ana.ok("room_start", {"room": room})
                await inbox.wait(lambda: len(inbox.messages) == 2)   # turn 1, to each
                found = await table_of(Store(client, prefix), notifier.game_modes, room)
                assert found is not None
                table, now = found[0], time.time()
                reaches = Reaches(client, prefix)
                people = {p.session["person"]: p for p in (ana, cas)}
                keys = {}
                for person, (deadline, clock) in zip(people, ((now - 1, 600.0), (now - 0.5, 0.4)), strict=True):
                    late = replace(table, deadline=deadline, clock=clock)   # reminder due deadline - clock / 2
                    messages, _ = compose.for_round(late, {person: await reaches.get(person)}, BASE, now, 0.5)
                    (reminder,) = [m for m in messages if m.key.startswith("remind:")]
                    keys[person] = reminder.key
                    assert await Outbox(client, prefix).put(reminder, replace=True)
                await inbox.wait(lambda: len(inbox.messages) == 3)
                await asyncio.sleep(1.0)
            outbox = Outbox(client, prefix)
            assert await outbox.was_done(keys[ana.session["person"]]) == "late"
            assert await outbox.was_done(keys[cas.session["person"]]) == "sent" and notifier.sent == 5
            assert subjects(inbox, "ana@example.org") == [say("en", "turn.subject", table="Days", turn=1)]
            assert subjects(inbox, "cas@example.org")[-1] == say("en", "remind.subject", table="Days")
        finally:
            await client.aclose()
            await server.stop()


async def test_a_refusing_mail_server_is_tried_again_later_and_play_goes_on(config, redis_url, prefix, clients):
    """The mail server answers 451 to each message's first four tries: each is tried again after 0.2 s,
    then 0.4, 0.8, 1.6 (doubling), delivered once the server takes it, and the table plays on meanwhile."""
    async with smtp_server() as (inbox, port):
        server = await notify_server(config, port)
        try:
            room, (ana, ben) = await expedition(server, clients, ["Ana", "Ben"], clock=30)
            async with running(redis_url, prefix, BASE, port):
                await reach_by_mail(server.url, inbox, ana, "ana@example.org", "en")
            tried: dict[str, list[float]] = {}
            handle = inbox.handle_DATA

            async def refusing(server_: Any, session: Any, envelope: Any) -> str:
                import email as parse

                mid = parse.message_from_bytes(envelope.content)["Message-ID"]
                tried.setdefault(mid, []).append(time.monotonic())
                if len(tried[mid]) <= 4:
                    return "451 4.3.0 mailbox busy, try again later"
                return await handle(server_, session, envelope)
            inbox.handle_DATA = refusing  # type: ignore[method-assign]
            async with running(redis_url, prefix, BASE, port, retry=0.2):
                await ana.ok("room_start", {"room": room})
                # both order once turn 1's message was tried (the notifier read of the turn): turn 2
                # begins while the mail server still refuses it
                await inbox.wait(lambda: bool(tried), timeout=10)
                for p in (ana, ben):
                    await p.wait(lambda p=p: my_order(p, room) is not None)
                    assert (await p.call("act", {"room": room, "v": p.v(room), "action": {"type": "pass"}}))["ok"]
                await ana.wait(lambda: ana.view(room)["turn"] == 2, timeout=5)
                turn_2 = time.monotonic()
                await inbox.wait(lambda: len(inbox.to("ana@example.org")) == 2, timeout=20)
            first_subject = say("en", "turn.subject", table="Days", turn=1)
            first = tried[next(m["Message-ID"] for m in inbox.to("ana@example.org") if m["Subject"] == first_subject)]
            assert len(first) == 5 and turn_2 < first[-1], "play waited on the mail server"
            gaps = [b - a for a, b in zip(first, first[1:], strict=False)]
            for i, gap in enumerate(gaps):
                assert gap >= 0.2 * 2 ** i * 0.9, gaps   # 0.2, 0.4, 0.8, 1.6: backing off
            # each once (retried apart, the later one may come first)
            assert sorted(subjects(inbox, "ana@example.org")) == [say("en", "turn.subject", table="Days", turn=t)
                                                                  for t in (1, 2)]
        finally:
            await server.stop()


async def test_without_a_mail_server_the_service_says_so_and_plays(server, clients):
    """No SMTP host, no VAPID key: the status says so, asking for e-mail is refused (409), bad requests
    are refused and change nothing, and a game is played as ever."""
    import aiohttp

    (ana,) = await people(server.url, clients, "Ana")
    token = ana.session["token"]
    async with aiohttp.ClientSession() as http, http.get(server.url + "/api/notify/status") as r:
        assert r.status == 200 and await r.json() == {"mail": False, "push": False, "vapid": None}
    status, answer = await api(server.url, token, "POST", "/api/notify/email", {"email": "a@example.org", "lang": "en"})
    assert status == 409 and answer["error"]["code"] == "no_mail"
    status, answer = await api(server.url, token, "GET", "/api/notify/me")
    assert status == 200 and answer["reach"]["email"] is None and answer["turns"] == []
    status, answer = await api(server.url, "not-a-token", "GET", "/api/notify/me")
    assert status == 401
    for body in ({"room": "r_00000000", "mode": "loud"}, {"room": "../x", "mode": "off"}, [1, 2]):
        status, answer = await api(server.url, token, "POST", "/api/notify/table", body)
        assert status == 400 and answer["error"]["code"] == "malformed", answer
    status, answer = await api(server.url, token, "POST", "/api/notify/table", {"room": "r_00000000", "mode": "off"})
    assert status == 403 and answer["error"]["code"] == "not_seated"
    status, answer = await api(server.url, token, "GET", "/api/notify/me")
    assert answer["reach"]["prefs"] == {}


async def test_your_turns_lists_the_tables_that_wait_for_you(server, clients):
    """The lobby's "Your turns": every table where the person is seated and playing, those expecting
    their decision first, each with its deadline."""
    room, (ana, ben) = await expedition(server, clients, ["Ana", "Ben"], clock=600)
    await ana.ok("room_start", {"room": room})
    await ana.wait(lambda: my_order(ana, room) is not None)
    status, answer = await api(server.url, ana.session["token"], "GET", "/api/notify/me")
    assert status == 200
    (row,) = answer["turns"]
    assert row["room"] == room and row["expected"] is True and row["name"] == "Days" and row["mode"] == "mine"
    assert 0 < row["deadline_ms"] / 1000 - time.time() <= 600
    assert (await ana.call("act", {"room": room, "v": ana.v(room), "action": {"type": "pass"}}))["ok"]
    await ben.wait(lambda: ben.v(room) == 1)
    _, answer = await api(server.url, ana.session["token"], "GET", "/api/notify/me")
    assert [r["expected"] for r in answer["turns"]] == [False]   # Ana's order is in: Ben is awaited
    _, answer = await api(server.url, ben.session["token"], "GET", "/api/notify/me")
    assert [r["expected"] for r in answer["turns"]] == [True]


async def test_tongiaki_serve_starts_a_notifier(redis_url, tmp_path):
    """`tongiaki serve` with a mail server configured starts its notifier (`tongiaki notify`, a process
    of its own), which sends the confirmation an address asks for; the link confirms it. (On a Redis
    Cluster and behind Sentinel: tests/realtime/test_cluster.py, test_failover.py.)"""
    await a_served_notifier_confirms_an_address(redis_url, tmp_path)


async def a_served_notifier_confirms_an_address(redis_url: str, tmp_path: Any) -> None:
    """`tongiaki serve` on `redis_url` with a mail server: a person asks to be reached by mail, the
    server's notifier process sends the confirmation, its link confirms it."""
    from tablekit import ServerProcess

    async with smtp_server() as (inbox, port):
        server = ServerProcess(redis_url, f"test-{secrets.token_hex(4)}", tmp_path, TONGIAKI_SMTP_HOST="127.0.0.1",
                               TONGIAKI_SMTP_PORT=str(port), TONGIAKI_SMTP_TLS="off", TONGIAKI_SMTP_SENDER=SENDER,
                               TONGIAKI_PUBLIC_URL=BASE, TONGIAKI_BOT_WORKERS="0")
        made: list[Client] = []
        try:
            await server.ready()
            (ana,) = await people(server.url, made, "Ana")
            await reach_by_mail(server.url, inbox, ana, "ana@example.org", "de")
        finally:
            for c in made:
                await c.close()
            server.stop()


def test_mail_settings_need_a_sender_and_the_public_address():
    import pytest

    from server.config import ConfigError, from_env

    with pytest.raises(ConfigError, match="SMTP_SENDER"):
        from_env({"TONGIAKI_SMTP_HOST": "mail.example.org"})
    with pytest.raises(ConfigError, match="PUBLIC_URL"):
        from_env({"TONGIAKI_SMTP_HOST": "mail.example.org", "TONGIAKI_SMTP_SENDER": SENDER})
    config = from_env({"TONGIAKI_SMTP_HOST": "mail.example.org", "TONGIAKI_SMTP_SENDER": SENDER,
                       "TONGIAKI_PUBLIC_URL": "https://play.example.org/", "TONGIAKI_SMTP_PORT": "465",
                       "TONGIAKI_SMTP_TLS": "tls", "TONGIAKI_REMIND_SHARE": "0.25"})
    assert (config.public_url, config.smtp_port, config.smtp_tls, config.remind_share) == \
        ("https://play.example.org", 465, "tls", 0.25)
    with pytest.raises(ConfigError, match="TONGIAKI_SMTP_TLS"):
        from_env({"TONGIAKI_SMTP_TLS": "maybe"})


def test_what_each_person_hears_of_a_turn_by_their_choice():
    """compose.py: per table, every turn / only my move / digest / nothing; by each channel the person has;
    the reminder 1/6 of the turn's time before the deadline (E3); one key per table, turn, person, channel."""
    from server.notify import compose
    from server.notify.reach import Reach

    table = compose.Table("r_0000abcd", "Days", 4, ("red",), 17, 1000.0 + 600, 600.0,
                          {"p_a": ("red",), "p_b": ("blue",), "p_c": ("green",), "p_d": ("yellow",)})
    push = {"endpoint": "https://fcm.googleapis.com/x", "keys": {}}
    reaches = {"p_a": Reach("p_a", "he", "a@example.org", True, push, "tok-a", {}),          # mine (default)
               "p_b": Reach("p_b", "fr", "b@example.org", True, None, "tok-b", {"r_0000abcd": "every"}),
               "p_c": Reach("p_c", "en", "c@example.org", True, None, "tok-c", {}),          # not expected
               "p_d": Reach("p_d", "de", "d@example.org", False, None, "tok-d", {})}         # not confirmed
    messages, digests = compose.for_round(table, reaches, BASE, 1000.0)
    assert [(m.person, m.channel, m.key.split(":")[0]) for m in messages] == [
        ("p_a", "mail", "turn"), ("p_a", "mail", "remind"), ("p_a", "push", "turn"), ("p_a", "push", "remind"),
        ("p_b", "mail", "turn")]
    assert len({m.key for m in messages}) == len(messages) and digests == []
    reminder = messages[1]
    assert reminder.due == 1600.0 - 100.0 and reminder.check == {"room": "r_0000abcd", "began_v": 17,
                                                                 "colours": ["red"], "deadline": 1600.0}
    assert messages[0].subject == say("he", "turn.subject", table="Days", turn=4)
    assert messages[-1].subject == say("fr", "round.subject", table="Days", turn=4)   # a turn, not their move
    assert f"{BASE}/api/notify/unsubscribe?t=tok-a&room=r_0000abcd" in messages[0].body
    reaches["p_a"].prefs["r_0000abcd"] = "digest"
    reaches["p_b"].prefs["r_0000abcd"] = "off"
    messages, digests = compose.for_round(table, reaches, BASE, 1000.0)
    assert messages == [] and [(d.person, d.line) for d in digests] == [
        ("p_a", {"kind": "turn", "table": "Days", "turn": 4})]
