"""Finished games in Chromium: a spectator rewinding a live game, the end screen, a rematch between two
people and a bot, the game in the lobby's recent games and in "my games", and its replay stepped to a
given turn, where the board equals that version's view as the engine rebuilds it from the record."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from browserkit import is_over, open_page, play
from test_browser import FAST, create_table

from server import patch

# Tiles and the boats on each beach (sorted) and the royal boat, as the board draws them.
BOARD_JS = r"""
() => [...document.querySelectorAll('[data-testid=board] .board > .tile')].map((g) => {
  const beaches = [...g.querySelectorAll('[data-beach-of]')].map(
    (b) => [...b.querySelectorAll('.boat')].map((x) => x.dataset.colour).sort().join(','));
  const royal = g.querySelector('.royal-boat')?.dataset.colour || '';
  return `${g.dataset.tile}@${g.dataset.cell}[${beaches.join('|')}]${royal}`;
}).sort().join(' ')
"""

REPLAY_SETTLED_JS = r"""
() => { const r = window.__tongiaki.replay; const t = r && r.table;
        return t && !t.queue.busy && !t.animating && r.state.shown === r.views[r.v] ? r.v : null; }
"""


def board_of(view: dict[str, Any]) -> str:
    out = []
    for t in view["tiles"]:
        beaches = "|".join(",".join(sorted(b["boats"])) for b in t.get("beaches", []))
        out.append(f"{t['tile']}@{t['cell'][0]},{t['cell'][1]}[{beaches}]{t.get('royal') or ''}")
    return " ".join(sorted(out))


def fetch(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def replay_settled(page: Any, v: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while page.evaluate(REPLAY_SETTLED_JS) != v:
        assert time.monotonic() < deadline, page.evaluate(REPLAY_SETTLED_JS)
        time.sleep(0.05)


def test_end_screen_rematch_recent_games_and_a_replay_to_a_turn(browser: Any, contexts: list[Any], base_url: str,
                                                               artifacts: Path) -> None:
    alice = open_page(browser, contexts)
    room = create_table(alice, base_url, name="Alice", seats=3)
    bob = open_page(browser, contexts)
    bob.goto(base_url + "/" + FAST)
    bob.fill("[data-testid=nickname]", "Bob")
    bob.click("[data-testid=save-name]")
    bob.wait_for_function("document.querySelector('[data-testid=who]').textContent === 'Bob'")
    bob.goto(f"{base_url}/{FAST}#/room/{room}")
    bob.click("[data-testid=sit-1]")
    alice.wait_for_function("document.querySelector(\"[data-seat='1']\")?.textContent.includes('Bob')")
    alice.click("[data-testid=bot-add-2]")
    alice.wait_for_selector("[data-seat='2'].seat-bot")
    alice.click("[data-testid=start]")
    for p in (alice, bob):
        p.wait_for_selector("[data-testid=board]")
    play([alice, bob], until=lambda: alice.evaluate("window.__tongiaki.room.stream.view.turn") >= 3, limit=200)

    # a spectator of the live game rewinds it, steps back, and returns to live
    carol = open_page(browser, contexts)
    carol.goto(f"{base_url}/{FAST}#/room/{room}")
    carol.wait_for_selector("[data-testid=board]")
    carol.click("[data-testid=rewind]")
    carol.wait_for_selector("[data-testid=replay-bar]")
    assert carol.locator("[data-testid=replay-live]").get_attribute("href") == f"#/room/{room}"
    carol.wait_for_function(f"({REPLAY_SETTLED_JS.strip()})() !== null")
    present = carol.evaluate(REPLAY_SETTLED_JS)   # the game as it was when the replay was fetched
    assert present == carol.evaluate("window.__tongiaki.replay.views.length") - 1 >= 6
    carol.click("[data-testid=replay-prev-turn]")
    carol.wait_for_function(f"window.__tongiaki.replay.v < {present}")
    carol.click("[data-testid=replay-live]")
    carol.wait_for_selector("[data-testid=board]")
    carol.wait_for_selector("[data-testid=spectator]")

    play([alice, bob], until=lambda: is_over(alice) and is_over(bob), limit=400)

    # the end screen: scores, then Rematch, the replay and the way back to the lobby
    for p in (alice, bob):
        p.wait_for_selector("[data-testid=end-actions]:not([hidden]) [data-testid=end-rematch]")
        assert p.locator("[data-testid=end-replay]").get_attribute("href") == f"#/replay/{room}"
        assert p.locator("[data-testid=end-back]").count() == 1
    alice.screenshot(path=str(artifacts / "20-end-screen.png"))

    # "my games": Bob's finished game, in a second tab of his (the same person)
    bob_lobby = bob.context.new_page()
    bob_lobby.goto(base_url + "/" + FAST)
    bob_lobby.wait_for_selector(f"[data-testid=my-games] [data-game='{room}']")
    assert bob_lobby.locator(f"[data-testid=live-rooms] [data-room='{room}']").count() == 0
    bob_lobby.close()

    # a rematch: Alice asks, Bob is invited and accepts in one click; the bot keeps its seat
    alice.click("[data-testid=end-rematch]")
    alice.wait_for_selector("[data-testid=seat-list]")
    new_room = alice.evaluate("window.__tongiaki.room.id")
    assert new_room != room
    # Bob's seat is kept for him: nobody else is offered "Sit" there (the host may open it to anyone)
    assert alice.locator("[data-testid=sit-1]").count() == 0
    assert alice.locator("[data-seat='1'] .seat-name").inner_text() == "kept for a player of the last game"
    assert alice.locator("[data-testid=kick-1]").inner_text() == "Open to anyone"
    bob.wait_for_selector("[data-testid=rematch-accept]")
    bob.screenshot(path=str(artifacts / "21-rematch-invitation.png"))
    bob.click("[data-testid=rematch-accept]")
    bob.wait_for_function(f"location.hash === '#/room/{new_room}'")
    alice.wait_for_function("document.querySelector(\"[data-seat='1']\")?.textContent.includes('Bob')")
    assert "Alice" in alice.locator("[data-seat='0']").inner_text()
    assert alice.locator("[data-seat='2'].seat-bot").count() == 1
    settings = alice.evaluate("window.__tongiaki.room.state.settings")
    assert settings["seats"] == 3 and settings["bot_pace"] == 0

    # the finished game is among the lobby's recent games; its replay opens from there
    carol.goto(base_url + "/" + FAST)
    carol.wait_for_selector(f"[data-testid=recent-games] [data-game='{room}'] a")
    carol.click(f"[data-testid=recent-games] [data-game='{room}'] a")
    carol.wait_for_selector("[data-testid=replay-bar]")
    frames = fetch(f"{base_url}/api/games/{room}/replay")["frames"]
    views, view = [], None
    for f in frames:
        view = patch.apply(view, f["patch"])
        views.append(view)
    replay_settled(carol, 0)
    assert carol.evaluate(BOARD_JS) == board_of(views[0])
    # nobody watches a finished game live: the status line says "Replay", not "Spectator"
    assert carol.locator("[data-testid=game-status] [data-testid=replay-status]").inner_text() == "Replay"
    assert carol.locator("[data-testid=game-status] [data-testid=spectator]").count() == 0
    # jump to turn 3: the board is that version's view
    carol.fill("[data-testid=replay-turn]", "3")
    carol.click("[data-testid=replay-go]")
    v3 = next(v for v, w in enumerate(views) if w["turn"] >= 3)
    replay_settled(carol, v3)
    assert carol.evaluate(BOARD_JS) == board_of(views[v3])
    assert carol.locator("[data-testid=replay-pos]").get_attribute("data-v") == str(v3)
    # the scores shown are those of that moment
    for p in views[v3]["players"]:
        shown = carol.locator(f"[data-testid=players] [data-colour={p['colour']}] [data-stat=score] b").inner_text()
        assert shown == str(p["score"])
    # one action on, one turn on, one back, and the end
    carol.click("[data-testid=replay-next]")
    replay_settled(carol, v3 + 1)
    assert carol.evaluate(BOARD_JS) == board_of(views[v3 + 1])
    carol.click("[data-testid=replay-next-turn]")
    # the start of the next turn after the one shown (turn 3 may have been a single action: then v3 + 1
    # is already turn 4, and "next turn" goes on to turn 5)
    here = views[v3 + 1]["turn"]
    v4 = next(v for v, w in enumerate(views) if w["turn"] > here)
    replay_settled(carol, v4)
    carol.click("[data-testid=replay-prev]")
    replay_settled(carol, v4 - 1)
    assert carol.evaluate(BOARD_JS) == board_of(views[v4 - 1])
    carol.screenshot(path=str(artifacts / "22-replay.png"))
    carol.click("[data-testid=replay-end]")
    replay_settled(carol, len(views) - 1)
    assert carol.evaluate(BOARD_JS) == board_of(views[-1])
    assert carol.locator("[data-testid=result]").is_visible()
    # play runs on by itself, pause stops it
    carol.click("[data-testid=replay-start]")
    replay_settled(carol, 0)
    carol.click("[data-testid=replay-play]")
    carol.wait_for_function("window.__tongiaki.replay.v >= 3")
    carol.click("[data-testid=replay-play]")
    stopped = carol.evaluate("window.__tongiaki.replay.v")
    time.sleep(0.5)
    assert carol.evaluate("window.__tongiaki.replay.v") <= stopped + 1
    # an unknown game says so
    carol.goto(f"{base_url}/{FAST}#/replay/r_00000000")
    carol.wait_for_selector("[data-testid=replay-missing]")
    for p in (alice, bob, carol):
        assert p.errors == []
