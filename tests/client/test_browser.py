"""The browser client in real headless Chromium against the real server.

Each test drives pages the way people do (pointing and clicking on the SVG board and the buttons) and
saves screenshots of the key screens under test-artifacts/client/."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import KINDS, SIGNATURE_JS, is_over, open_page, play, settled_version, step, wait_same_board

FAST = "?anim=0"  # animations off: tests check states, tests/client/test_animation checks the animations


def create_table(page: Any, base_url: str, *, name: str, seats: int, query: str = FAST) -> str:
    page.goto(base_url + "/" + query)
    page.wait_for_selector("[data-testid=create-form]")
    page.fill("[data-testid=nickname]", name)
    page.click("[data-testid=save-name]")
    page.wait_for_function(f"document.querySelector('[data-testid=who]').textContent === {name!r}")
    page.select_option("[data-testid=seats]", str(seats))
    page.fill("[data-testid=table-name]", f"{name}'s test table")
    page.fill("[data-testid=bot-pace]", "0")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=seat-list]")
    m = re.search(r"#/room/([\w-]+)", page.url)
    assert m, page.url
    return m.group(1)


def test_lobby_create_add_bots_and_play_a_whole_game_by_clicking(browser: Any, contexts: list[Any],
                                                                  base_url: str, artifacts: Path) -> None:
    page = open_page(browser, contexts)
    page.goto(base_url + "/" + FAST)
    page.wait_for_selector("[data-testid=create-form]")
    assert page.locator("[data-testid=conn]").get_attribute("data-state") == "online"
    page.screenshot(path=str(artifacts / "01-lobby.png"))

    room = create_table(page, base_url, name="Hina", seats=3)
    # the host sits in seat 0 and fills the others with bots
    page.click("[data-testid=bot-add-1]")
    page.wait_for_selector("[data-seat='1'].seat-bot")
    page.click("[data-testid=bot-add-2]")
    page.wait_for_selector("[data-seat='2'].seat-bot")
    assert "Hina" in page.locator("[data-seat='0']").inner_text()
    # each bot's level: intermediate (greedy) unless the host chooses another
    assert page.locator("[data-seat='1'] .tag.bot").inner_text() == "bot · intermediate"
    page.select_option("[data-testid=bot-level-2]", "random")
    page.wait_for_selector("[data-seat='2'] .tag.bot[data-level=random]")
    assert page.locator("[data-seat='2'] .tag.bot").inner_text() == "bot · beginner"
    # chat is plain text: markup is shown, never interpreted
    page.fill("[data-testid=chat-input]", "<img src=x onerror=alert(1)><b>hi</b>")
    page.click("[data-testid=chat-send]")
    page.wait_for_selector("[data-testid=chat-lines] li")
    assert page.locator("[data-testid=chat-lines] img, [data-testid=chat-lines] li b b").count() == 0
    assert "<b>hi</b>" in page.locator("[data-testid=chat-lines] .chat-text").first.inner_text()
    page.screenshot(path=str(artifacts / "02-waiting-room.png"))

    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=board]")
    assert page.locator("[data-testid=players] .player").count() == 3
    assert page.locator("[data-testid=players] .tag.bot").count() == 2
    assert sorted(page.locator("[data-testid=players] .tag.bot").all_inner_texts()) == [
        "bot · beginner", "bot · intermediate"]

    shots = {"mid": False}

    def snap(n: int) -> None:
        if n >= 60 and not shots["mid"]:
            shots["mid"] = True
            page.screenshot(path=str(artifacts / "03-game-in-progress.png"))

    counts = play([page], until=lambda: is_over(page), on_step=snap)
    assert counts.get("beach", 0) >= 2, counts  # at least the two set-up boats were placed by clicking
    # final scores with the tie-break that decided
    result = page.locator("[data-testid=result]")
    assert "Final scores" in result.inner_text()
    assert page.locator("[data-testid=winner]").inner_text().startswith(("Winner", "Shared victory"))
    assert page.locator("[data-testid=decided-by]").inner_text()
    assert page.locator("[data-testid=result] tbody tr").count() == 3
    assert page.locator("[data-testid=log] li").count() > 20
    assert "Game over" in page.locator("[data-testid=game-status]").inner_text()
    assert page.errors == []
    page.screenshot(path=str(artifacts / "04-final-scores.png"))
    # the finished game is listed in the lobby, among the recent games (no longer among the live ones)
    page.click("[data-testid=nav-lobby]")
    page.wait_for_selector(f"[data-testid=recent-games] [data-game='{room}']")
    assert page.locator(f"[data-testid=live-rooms] [data-room='{room}']").count() == 0


# The page's `lobby_watch` answers are held in the page until `window.__release()`; `window.__held` counts
# those that came, `window.__started` whether the page heard the `lobby` event of the room's start.
HOLD_LISTING_JS = r"""
(room) => {
  const net = window.__tongiaki.net, request = net.request.bind(net);
  let release;
  const released = new Promise((r) => { release = r; });
  Object.assign(window, { __release: release, __held: 0, __started: false });
  net.on('lobby', (m) => {
    if (m.op === 'upsert' && m.room.id === room && m.room.status === 'playing') window.__started = true;
  });
  net.request = async (event, payload) => {
    const res = await request(event, payload);
    if (event === 'lobby_watch') { window.__held += 1; await released; }
    return res;
  };
}
"""


def test_a_game_started_while_the_lobby_is_read_is_among_the_live_games(browser: Any, contexts: list[Any],
                                                                        base_url: str) -> None:
    """A spectator opens the lobby while a table starts: the listing is read before the start, and its
    `lobby` event (heard from before the listing was read) reaches the page before the listing does (held
    in the page until then, so that this order is sure). The page shows the game among the live games at
    once, not as an open table until the room changes again."""
    alice = open_page(browser, contexts)
    room = create_table(alice, base_url, name="Alice", seats=2)
    carol = open_page(browser, contexts)
    carol.goto(base_url + "/" + FAST + "#/rules")   # not the lobby yet: the hold goes in first
    carol.wait_for_selector("[data-testid=rules]")
    carol.evaluate(HOLD_LISTING_JS, room)
    carol.evaluate("location.hash = '#/'")
    carol.wait_for_function("window.__held === 1")   # the listing read, with the table still waiting
    alice.click("[data-testid=start-bots]")
    alice.wait_for_selector("[data-testid=board]")
    carol.wait_for_function("window.__started")
    carol.evaluate("window.__release()")
    carol.wait_for_selector(f"[data-testid=live-rooms] [data-room='{room}'] button", timeout=10_000)
    assert carol.locator(f"[data-testid=open-rooms] [data-room='{room}']").count() == 0
    assert carol.errors == [] and alice.errors == []


def test_two_players_a_spectator_and_a_reload(browser: Any, contexts: list[Any], base_url: str,
                                              artifacts: Path) -> None:
    alice = open_page(browser, contexts)
    room = create_table(alice, base_url, name="Alice", seats=2)

    bob = open_page(browser, contexts)
    bob.goto(base_url + "/" + FAST)
    bob.wait_for_selector("[data-testid=create-form]")
    bob.fill("[data-testid=nickname]", "Bob")
    bob.click("[data-testid=save-name]")
    # the new table appears live in Bob's lobby; he joins and sits
    bob.wait_for_selector(f"[data-testid=open-rooms] [data-room='{room}'] button")
    bob.click(f"[data-testid=open-rooms] [data-room='{room}'] button")
    bob.wait_for_selector("[data-testid=sit-1]")
    bob.click("[data-testid=sit-1]")
    alice.wait_for_function("document.querySelector(\"[data-seat='1']\")?.textContent.includes('Bob')")
    alice.click("[data-testid=start]")

    # a spectator on a phone-size screen, with animations on (fast)
    carol = open_page(browser, contexts, viewport={"width": 390, "height": 844})
    carol.goto(base_url + "/?anim=4")
    carol.wait_for_selector(f"[data-testid=live-rooms] [data-room='{room}'] button")
    carol.click(f"[data-testid=live-rooms] [data-room='{room}'] button")
    carol.wait_for_selector("[data-testid=board]")
    assert carol.locator("[data-testid=spectator]").count() == 1
    assert carol.locator("[data-testid=decision] button").count() == 0
    # a player's decision bar keeps one height (the board never moves between clicks); a spectator's,
    # with never a button in it, is a line: on a phone that is the board's room
    bar_in_ems = ("(() => { const d = document.querySelector('[data-testid=decision]');"
                  " return d.offsetHeight / parseFloat(getComputedStyle(d).fontSize); })()")
    carol.wait_for_selector("[data-testid=decision] [data-testid=prompt]")
    assert carol.evaluate(bar_in_ems) < 4
    assert alice.evaluate(bar_in_ems) >= 6

    for p in (alice, bob):
        p.wait_for_selector("[data-testid=board]")
    assert "Red" in alice.locator("[data-testid=game-status]").inner_text()
    assert "Blue" in bob.locator("[data-testid=game-status]").inner_text()

    # play a while: set-up and a few turns, each person clicking on their own turn
    def turn_no() -> int:
        return int(alice.evaluate("window.__tongiaki.room.stream.view.turn"))

    play([alice, bob], until=lambda: turn_no() >= 4 or is_over(alice), limit=90)
    signature = wait_same_board([alice, bob, carol])
    assert signature.count("Tonga@0,0") == 1
    alice.screenshot(path=str(artifacts / "05-two-players-alice.png"))
    bob.screenshot(path=str(artifacts / "06-two-players-bob.png"))
    carol.screenshot(path=str(artifacts / "07-spectator-phone.png"), full_page=True)

    # Bob reloads mid-game: same seat, same board, and he can still play
    v_before = settled_version(bob)
    bob.reload()
    bob.wait_for_selector("[data-testid=board]")
    assert "Blue" in bob.locator("[data-testid=game-status]").inner_text()
    assert bob.evaluate("location.hash") == f"#/room/{room}"
    assert wait_same_board([alice, bob, carol]) == signature
    assert settled_version(bob) == v_before
    assert bob.locator("[data-testid=log] li").count() > 5  # the game log survives the reload
    # and shows its newest entries, as before the reload (it was drawn before its panel was on the page)
    assert bob.evaluate("(() => { const l = document.querySelector('[data-testid=log]');"
                        " return [l.scrollHeight > l.clientHeight, l.scrollTop + l.clientHeight >= l.scrollHeight - 2];"
                        " })()") == [True, True]

    # Bob closes the tab and comes back to the site's address: he is taken back to his seat
    ctx = bob.context
    bob.close()
    bob = ctx.new_page()
    bob.errors = []
    bob.on("pageerror", lambda e: bob.errors.append(str(e)))
    bob.goto(base_url + "/" + FAST)
    bob.wait_for_selector("[data-testid=board]")
    assert bob.evaluate("location.hash") == f"#/room/{room}"
    assert "Blue" in bob.locator("[data-testid=game-status]").inner_text()
    assert wait_same_board([alice, bob, carol]) == signature

    # Bob loses the network: the indicator says so; back online he is at his seat again
    bob.context.set_offline(True)
    bob.evaluate("window.__tongiaki.net.socket.io.engine.close()")
    bob.wait_for_selector("[data-testid=conn][data-state=offline]")
    alice.wait_for_function("document.querySelector(\"[data-colour='blue'] .conn-dot\")?.dataset.on === 'no'",
                            timeout=20000)
    bob.screenshot(path=str(artifacts / "08-offline.png"))
    bob.context.set_offline(False)
    bob.wait_for_selector("[data-testid=conn][data-state=online]", timeout=20000)
    alice.wait_for_function("document.querySelector(\"[data-colour='blue'] .conn-dot\")?.dataset.on === 'yes'",
                            timeout=20000)

    # chat between players reaches the spectator
    bob.fill("[data-testid=chat-input]", "good luck!")
    bob.click("[data-testid=chat-send]")
    carol.wait_for_function("[...document.querySelectorAll('[data-testid=chat-lines] li')]"
                            ".some(l => l.textContent.includes('Bob: good luck!'))")

    # play on a while; everyone still sees the same board
    play([alice, bob], until=lambda: turn_no() >= 10 or is_over(alice), limit=90)
    assert wait_same_board([alice, bob, carol], timeout=40)
    for p in (alice, bob, carol):
        assert p.errors == []
    carol.screenshot(path=str(artifacts / "09-spectator-later.png"), full_page=True)


def test_hebrew_is_right_to_left_and_languages_switch(browser: Any, contexts: list[Any], base_url: str,
                                                      artifacts: Path) -> None:
    page = open_page(browser, contexts, locale="he-IL")
    page.goto(base_url + "/" + FAST)
    page.wait_for_selector("[data-testid=create-form]")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("document.documentElement.lang") == "he"
    assert "שולחנות פתוחים" in page.inner_text("body")
    page.screenshot(path=str(artifacts / "10-lobby-hebrew.png"))

    create_table(page, base_url, name="נועה", seats=2)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    # the board is laid out right to left: the side panel is on the left of the board
    board = page.locator(".table-main").bounding_box()
    side = page.locator(".side").bounding_box()
    assert side["x"] + side["width"] <= board["x"] + 1, (side, board)
    # the decision prompt is in Hebrew and aligned from the right
    page.wait_for_function("document.querySelector('[data-testid=board]').dataset.interactive === 'yes'")
    assert "הכנה" in page.locator("[data-testid=game-status]").inner_text()
    assert page.evaluate("getComputedStyle(document.querySelector('[data-testid=decision]')).direction") == "rtl"
    step(page)
    page.screenshot(path=str(artifacts / "11-table-hebrew.png"))

    # switch to French, German, Dutch: left to right again, the table stays
    for lang, word in (("fr", "Joueurs"), ("de", "Spieler"), ("nl", "Spelers")):
        page.select_option("[data-testid=lang]", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        assert page.evaluate("document.documentElement.dir") == "ltr"
        assert word in page.locator(".side").inner_text()
        page.wait_for_selector("[data-testid=board]")
    page.screenshot(path=str(artifacts / "12-table-dutch.png"))
    assert page.errors == []


def test_each_language_is_fetched_when_needed(browser: Any, contexts: list[Any], base_url: str) -> None:
    """The strings of a language are a chunk of their own: the page's language and English (the fallback)
    are fetched, the others only when chosen; a language that cannot be fetched leaves the page in English."""
    page = open_page(browser, contexts, locale="de-DE")
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url.rsplit("/", 1)[-1]))

    def langs() -> set[str]:
        return {m.group(1) for u in fetched if (m := re.fullmatch(r"(en|fr|nl|de|he)-\w+\.js", u))}

    page.goto(base_url + "/" + FAST)
    page.wait_for_selector("[data-testid=create-form]")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert "Offene Tische" in page.inner_text("body")
    deadline = time.monotonic() + 10  # English is asked for beside German, not waited for
    while "en" not in langs() and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert langs() == {"de", "en"}, fetched
    page.select_option("[data-testid=lang]", "nl")
    page.wait_for_function("document.documentElement.lang === 'nl'")
    assert "Open tafels" in page.inner_text("body")
    assert langs() == {"de", "en", "nl"}, fetched
    # Hebrew's chunk cannot be fetched (the network): the page goes on in English
    page.route(re.compile(r".*/he-\w+\.js$"), lambda route: route.abort())
    page.select_option("[data-testid=lang]", "he")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "Open tables" in page.inner_text("body")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert page.errors == []


def test_animations_play_the_events_and_can_be_skipped(browser: Any, contexts: list[Any], base_url: str,
                                                       artifacts: Path) -> None:
    """With animations on, a voyage is shown step by step (a fleet marker sails); skip ends it at once."""
    page = open_page(browser, contexts)
    create_table(page, base_url, name="Tane", seats=3, query="?anim=1")
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    seen_fleet = False
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not is_over(page):
        if page.locator("[data-testid=anim-fleet]").count():
            if not seen_fleet:
                page.screenshot(path=str(artifacts / "13-fleet-sailing.png"))
            seen_fleet = True
            page.click("[data-testid=skip]")
            break
        r = step(page)
        if r in ("wait", "retry"):
            time.sleep(0.01)
    assert seen_fleet, "no voyage was animated"
    # pan and zoom: buttons, wheel, drag; fit resets. On a quiet board: the person to decide (the bots wait)
    # and nothing playing, so that no new decision moves the camera between the clicks
    page.wait_for_function("""() => document.querySelector('[data-testid=board]')?.dataset.interactive === 'yes'
      && !window.__tongiaki.room.table.queue.busy""")
    viewport = page.locator("[data-testid=board] .viewport")

    def scale() -> float:
        return float(str(viewport.get_attribute("transform")).split("scale(")[1].rstrip(")"))

    page.click("[data-testid=fit]")
    # the whole board, at a zoom still readable: 1 on a small board, more once it has grown past the
    # readable size (then fit centres the islands at that zoom)
    fitted = viewport.get_attribute("transform")
    z = scale()
    assert z >= 1 and (z == 1) == (fitted == "translate(0 0) scale(1)"), fitted
    page.locator(".zoom-controls button").first.click()
    assert scale() == pytest.approx(z * 1.25)
    box = page.locator("[data-testid=board]").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -200)
    assert scale() == pytest.approx(z * 1.25 * 1.15)
    before = viewport.get_attribute("transform")
    page.mouse.down()
    page.mouse.move(cx + 80, cy + 40, steps=5)
    page.mouse.up()
    assert viewport.get_attribute("transform") != before
    page.click("[data-testid=fit]")
    assert viewport.get_attribute("transform") == fitted
    page.select_option("[data-testid=speed]", "0")
    assert page.evaluate("window.__tongiaki.room.table.queue.speed") == 0
    sig = page.evaluate(SIGNATURE_JS)
    assert "Tonga@0,0" in sig
    assert page.errors == []


def test_private_table_with_both_variants_played_to_the_end(browser: Any, contexts: list[Any], base_url: str,
                                                             artifacts: Path) -> None:
    """Two colours each and free follow-up tiles (R14): the turn_tile decision is made by clicking, the
    result adds each person's colours; the private table is joined by its code and never listed."""
    page = open_page(browser, contexts)
    page.goto(base_url + "/" + FAST)
    page.wait_for_selector("[data-testid=create-form]")
    page.check("[data-testid=two-colours]")
    page.check("[data-testid=free-follow-up]")
    page.check("[data-testid=private]")
    page.fill("[data-testid=bot-pace]", "0")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=room-code]")
    code = page.locator("[data-testid=room-code]").inner_text().split()[-1]
    room = page.url.split("#/room/")[1]

    guest = open_page(browser, contexts)
    guest.goto(base_url + "/" + FAST)
    guest.wait_for_selector("[data-testid=create-form]")
    assert guest.locator(f"[data-room='{room}']").count() == 0
    guest.fill("[data-testid=code-input]", code)
    guest.locator("form.join-code button").click()
    guest.wait_for_selector("[data-testid=seat-list]")
    assert guest.url.endswith(f"#/room/{room}")
    guest.click("[data-testid=leave]")
    guest.wait_for_selector("[data-testid=create-form]")
    # the invite link works too
    assert page.locator("[data-testid=invite-link]").get_attribute("href") == f"#/code/{code}"
    guest.goto(f"{base_url}/{FAST}#/code/{code}")
    guest.wait_for_selector("[data-testid=seat-list]")
    assert guest.url.endswith(f"#/room/{room}")
    guest.click("[data-testid=leave]")
    guest.wait_for_selector("[data-testid=create-form]")
    # a link whose code leads nowhere: the lobby, and why (not an empty page)
    guest.goto(f"{base_url}/{FAST}#/code/NOSUCH")
    guest.wait_for_selector("[data-testid=create-form]")
    guest.wait_for_function("document.querySelector('[data-testid=global-toast]')?.textContent.length > 0")
    assert guest.evaluate("location.hash") in ("", "#/")

    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    assert "Red, Green" in page.locator("[data-testid=game-status]").inner_text()
    KINDS.clear()
    play([page], until=lambda: is_over(page), limit=150)
    print("decisions met:", KINDS)
    assert {"setup", "turn", "migrate"} <= set(KINDS), KINDS
    assert page.locator("[data-testid=result] .teams").count() == 1
    assert page.errors == []
    page.screenshot(path=str(artifacts / "14-two-colours-final.png"))


def _wait_my_decision(page: Any, timeout: float = 30.0) -> str:
    page.wait_for_function("document.querySelector('[data-testid=board]')?.dataset.interactive === 'yes'"
                           " || !document.querySelector('[data-testid=result]')?.hidden", timeout=timeout * 1000)
    return str(page.get_attribute("[data-testid=decision]", "data-kind"))


def test_colonise_royal_island_and_restart_by_clicking(browser: Any, contexts: list[Any], base_url: str,
                                                       artifacts: Path) -> None:
    """The decisions a random clicker never meets: new colonisation (R11: place drawn tiles, turn them,
    settle), a royal island (R10), then the special start with no boat on the board (R12)."""
    page = open_page(browser, contexts)
    create_table(page, base_url, name="Moana", seats=2)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    while _wait_my_decision(page) == "setup":
        step(page)
        page.wait_for_timeout(50)
    assert _wait_my_decision(page) == "turn"

    # R11: new colonisation — confirmed in the decision bar, which says what it takes off the board; then
    # every drawn tile is placed on a chosen free space, turned, then settled on
    page.click("button[data-action=colonise]")
    assert "boats off the board" in page.locator("[data-testid=prompt]").inner_text()
    page.screenshot(path=str(artifacts / "15a-confirm-colonise.png"))
    page.click("button[data-action=confirm]")
    placed = 0
    while (kind := _wait_my_decision(page)) == "place_tile":
        page.locator("[data-testid=board] [data-hit=cell]").first.click()
        page.wait_for_selector("[data-testid=board] [data-hit=preview]")
        rotate = page.locator("button[data-action='rotate:1']:not([disabled])")
        if rotate.count():
            before = page.locator("[data-testid=board] .preview [data-tile]").get_attribute("data-tile")
            rotate.click()
            assert page.locator("[data-testid=board] .preview [data-tile]").get_attribute("data-tile") == before
        if placed == 0:
            page.screenshot(path=str(artifacts / "15-colonise-place-tile.png"))
        page.click("button[data-action=place]")
        placed += 1
        page.wait_for_function("document.querySelector('[data-testid=board]').dataset.interactive !== 'yes'"
                               " || document.querySelector('[data-testid=decision]').dataset.kind !== 'place_tile'"
                               " || !document.querySelector('[data-testid=board] [data-hit=preview]')")
    assert kind == "settle", kind
    assert placed >= 1
    colony = page.locator("[data-testid=board] [data-hit=beach]").first.get_attribute("data-island")
    page.locator("[data-testid=board] [data-hit=beach] .mooring").first.click()
    page.wait_for_function("[...document.querySelectorAll('[data-testid=log] li')]"
                           ".some(l => l.textContent.includes('new colonisation'))")

    # R10: next turn, found a royal island on the colony (if the bot has not landed there meanwhile)
    assert _wait_my_decision(page) == "turn"
    if page.locator("button[data-action='mode:royal']").count():
        page.click("button[data-action='mode:royal']")
        island = page.locator(f"[data-testid=board] [data-hit=island][data-island='{colony}']")
        if island.count():
            island.click()
            assert page.get_attribute("[data-testid=prompt]", "data-prompt") == "prompt.confirm_royal"
            page.click("button[data-action=confirm]")
            page.wait_for_function("[...document.querySelectorAll('[data-testid=log] li')]"
                                   ".some(l => l.textContent.includes('royal island'))")
            page.wait_for_selector(f"[data-testid=board] [data-tile='{colony}'] .royal-boat")
            page.screenshot(path=str(artifacts / "16-royal-island.png"))
            # R12: no boat left on the board (the royal boat does not count): the special start
            kind = _wait_my_decision(page)
            if kind == "restart":
                page.screenshot(path=str(artifacts / "17-restart.png"))
                tonga = page.locator("[data-testid=board] [data-hit=beach][data-island='Tonga'] .mooring")
                if tonga.count():
                    tonga.first.click()
                    if page.get_attribute("[data-testid=decision]", "data-kind") == "restart" and \
                            page.locator("[data-testid=board] .beach.selected").count():
                        page.locator("[data-testid=board] [data-hit=beach][data-island='Tonga'] .mooring").first.click()
                else:
                    page.locator("[data-testid=board] [data-hit=beach] .mooring").first.click()
                page.wait_for_function(
                    "document.querySelector('[data-testid=decision]').dataset.kind !== 'restart'"
                    " || document.querySelector('[data-testid=board]').dataset.interactive !== 'yes'")
    assert page.errors == []


def test_the_host_frees_a_seat_another_person_holds_in_a_waiting_room(browser: Any, contexts: list[Any],
                                                                      base_url: str) -> None:
    """Seat squatting: the host sees "Free this seat" on a seat another person holds and frees it; the seat
    is empty for everyone, and the person freed may watch but not sit at this table again (refused
    `barred`, said in words)."""
    alice = open_page(browser, contexts)
    room = create_table(alice, base_url, name="Alice", seats=3)
    bob = open_page(browser, contexts)
    bob.goto(f"{base_url}/#/room/{room}")
    bob.click("[data-testid=sit-1]")
    alice.wait_for_selector("[data-testid=kick-1]")
    assert alice.locator("[data-testid=kick-0]").count() == 0     # not the host's own seat
    assert bob.locator("[data-testid^=kick-]").count() == 0       # only the host frees seats
    alice.click("[data-testid=kick-1]")
    alice.wait_for_selector("[data-testid=sit-1]")
    bob.wait_for_selector("[data-testid=sit-1]")
    bob.click("[data-testid=sit-1]")
    bob.wait_for_function("document.querySelector('[data-testid=global-toast]').textContent.includes('removed you')")
    # the client's own words for the code, not the server's English message after "Server:"
    assert bob.text_content("[data-testid=global-toast]") == \
        "The host removed you from this table: you may watch, not sit."
    assert alice.locator("[data-testid=kick-1]").count() == 0 and alice.locator("[data-testid=sit-1]").count() == 1
    assert alice.errors == [] and bob.errors == []
