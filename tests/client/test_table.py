"""The table a person wants to sit at, in real Chromium against the real server: nothing
half-chosen is lost while thinking, the clock is visible, the turn is signalled, the board is reachable by
thumb and keyboard. Screenshots go to test-artifacts/client/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browserkit import PHONE, bots_only_room, open_page, step
from test_browser import create_table

COUNT_SINCE_JS = r"""
() => {
  const app = window.__tongiaki;
  window.__since = 0;
  const request = app.net.request.bind(app.net);
  app.net.request = (event, data) => { if (event === 'since') window.__since += 1; return request(event, data); };
}
"""


def _wait_kind(page: Any, timeout: float = 30.0) -> str:
    page.wait_for_function("document.querySelector('[data-testid=board]')?.dataset.interactive === 'yes'",
                           timeout=timeout * 1000)
    return str(page.get_attribute("[data-testid=decision]", "data-kind"))


def _prompt(page: Any) -> tuple[str, str]:
    p = page.locator("[data-testid=prompt]")
    return str(p.get_attribute("data-prompt")), p.inner_text()


def _half_choice(page: Any) -> None:
    """Begin a turn's decision without finishing it: an island for an expansion, then one of its beaches
    when it needs more than one; or the royal-island mode."""
    key, _ = _prompt(page)
    if key == "prompt.expand_island":
        page.locator("[data-testid=board] [data-hit=island]").first.click()
        key, _ = _prompt(page)
    if key == "prompt.expand_beaches" and "— 1 more" not in _prompt(page)[1]:
        page.locator("[data-testid=board] [data-hit=beach]:not(.selected) .mooring").first.click()
        return
    if key == "prompt.expand_beaches":
        return
    page.click("button[data-action='mode:royal']")


def test_a_half_made_choice_survives_a_quiet_spell(browser: Any, contexts: list[Any], base_url: str,
                                                   artifacts: Path) -> None:
    """A quiet spell (no game message) makes the client ask whether it missed one; the half-made choice,
    the board and the version stay as they were."""
    page = open_page(browser, contexts, viewport={"width": 1366, "height": 768})
    create_table(page, base_url, name="Maya", seats=2)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    boxes = set()

    def board_box() -> None:
        b = page.locator("[data-testid=board]").bounding_box()
        boxes.add((round(b["x"]), round(b["y"]), round(b["width"]), round(b["height"])))

    while _wait_kind(page) == "setup":
        board_box()
        step(page)
        page.wait_for_timeout(50)
    assert _wait_kind(page) == "turn"
    board_box()
    # the decision is ours: the title and the favicon say so
    assert page.evaluate("document.title").startswith("● Your turn")
    assert page.get_attribute("link[rel=icon]", "data-turn") == "yes"
    _half_choice(page)
    board_box()
    before = _prompt(page)
    selected = page.locator("[data-testid=board] .selected").count()
    assert before[0] != "prompt.turn", before
    page.evaluate(COUNT_SINCE_JS)
    v = page.get_attribute("[data-testid=board]", "data-v")
    page.screenshot(path=str(artifacts / "20-half-choice-1366.png"))
    # nothing heard for a while (as if ten seconds went by): the background check asks for what was missed
    # (nothing was) at its next look, and the choice is still there
    page.evaluate("window.__tongiaki._lastHeard = 0")
    page.wait_for_function("window.__since >= 1", timeout=15_000)
    assert page.get_attribute("[data-testid=board]", "data-v") == v
    assert _prompt(page) == before
    assert page.locator("[data-testid=board] .selected").count() == selected
    assert page.get_attribute("[data-testid=board]", "data-interactive") == "yes"
    assert page.locator("[data-testid=decision-notice]").count() == 0
    # whatever the decision bar said meanwhile, the board never moved
    board_box()
    assert len(boxes) == 1, boxes
    assert page.errors == []



# The page's running animations: each one's target, whether it ends, and its name.
RUNNING_JS = r"""
() => document.getAnimations().filter((a) => a.playState === 'running').map((a) => ({
  target: `${a.effect?.target?.tagName}.${[...(a.effect?.target?.classList || [])].join('.')}`,
  name: a.animationName || '', ends: Number.isFinite(a.effect.getComputedTiming().iterations) }))
"""


def test_a_waiting_decision_leaves_the_board_at_rest(browser: Any, contexts: list[Any], base_url: str) -> None:
    """On a phone: the targets of a decision pulse as they appear, then stay lit and still while the person
    thinks. (A pulse without end repaints the board sixty times a second for as long as they think: 16-18 %
    of a core in Chromium against 1-2 % at rest, a phone's battery.)"""
    page = open_page(browser, contexts, viewport=PHONE, touch=True)
    create_table(page, base_url, name="Rua", seats=2)
    page.click("[data-testid=start-bots]")
    _wait_kind(page)
    running = page.evaluate(RUNNING_JS)
    pulsing = [r for r in running if r["name"] == "pulse"]
    assert pulsing, running   # the targets draw the eye as they appear
    assert all(r["ends"] for r in running), running
    page.wait_for_function("() => !document.getAnimations().some((a) => a.playState === 'running')", timeout=10_000)
    # at rest, the same decision still waits, its targets lit
    assert page.get_attribute("[data-testid=board]", "data-interactive") == "yes"
    lit = page.evaluate("""() => [...document.querySelectorAll('[data-testid=board] .clickable')]
      .map((e) => getComputedStyle(e.querySelector('.beach-arc, .hex') || e).stroke)""")
    assert lit and all(s not in ("none", "") for s in lit), lit
    assert page.errors == []


def test_a_half_made_choice_survives_a_reload_of_the_page(browser: Any, contexts: list[Any], base_url: str,
                                                         artifacts: Path) -> None:
    """The same seat, the same version, the same half-made choice after a reload (nothing
    half-chosen is lost unless the game's version changed); sent, it is forgotten."""
    page = open_page(browser, contexts, viewport={"width": 1366, "height": 768})
    create_table(page, base_url, name="Maya", seats=2)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    while _wait_kind(page) == "setup":
        step(page)
        page.wait_for_timeout(50)
    _half_choice(page)
    before = _prompt(page)
    selected = page.locator("[data-testid=board] .selected").count()
    assert before[0] != "prompt.turn" and selected >= 1, (before, selected)
    v = page.get_attribute("[data-testid=board]", "data-v")
    page.reload()
    page.wait_for_selector("[data-testid=board]")
    assert _wait_kind(page) == "turn"
    page.wait_for_function("(b) => document.querySelector('[data-testid=board]')?.dataset.v === b", arg=v)
    assert _prompt(page) == before
    assert page.locator("[data-testid=board] .selected").count() == selected
    page.screenshot(path=str(artifacts / "21-half-choice-after-reload-1366.png"))
    # finished and sent, the choice is not kept for the next decision
    for _ in range(40):
        if page.evaluate("sessionStorage.getItem('tongiaki.draft')") is None:
            break
        step(page)
        page.wait_for_timeout(100)
    assert page.evaluate("sessionStorage.getItem('tongiaki.draft')") is None
    page.wait_for_function("(b) => document.querySelector('[data-testid=board]')?.dataset.v !== b", arg=v)
    assert page.errors == []

def _ms(page: Any, where: str) -> int:
    return int(page.locator(f"{where} [role=timer]:not([hidden])").first.get_attribute("data-ms"))


def test_the_turn_clock_counts_down_and_its_move_is_logged(browser: Any, contexts: list[Any], base_url: str,
                                                           artifacts: Path) -> None:
    page = open_page(browser, contexts, viewport={"width": 1366, "height": 768})
    page.goto(base_url + "/?anim=0")
    page.wait_for_selector("[data-testid=create-form]")
    page.fill("[data-testid=nickname]", "Maya")
    page.click("[data-testid=save-name]")
    page.select_option("[data-testid=seats]", "2")
    page.fill("[data-testid=bot-pace]", "0")
    page.fill("[data-testid=clock]", "7")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=seat-list]")
    page.click("[data-testid=start-bots]")
    _wait_kind(page)
    assert page.evaluate("document.title").startswith("● Your turn")
    # a countdown on the active seat and in the decision bar, counting down; the last 10 s warn
    first = _ms(page, "[data-testid=decision]")
    assert 0 < first <= 7000
    assert page.locator("[data-testid=players] .player.active [role=timer]:not([hidden])").count() == 1
    assert "warn" in (page.locator("[data-testid=decision] [role=timer]").get_attribute("class") or "")
    page.wait_for_timeout(1200)
    assert _ms(page, "[data-testid=decision]") < first - 700
    page.screenshot(path=str(artifacts / "21-clock-warning-1366.png"))
    # a reloaded page gets the time left from the server's room state
    page.reload()
    page.wait_for_selector("[data-testid=decision] [role=timer]:not([hidden])")
    # (more than 1.2 s passed since `first` was read: a page that restarted the clock would show ~7 s)
    assert _ms(page, "[data-testid=decision]") < first - 1000
    # the clock decides, and the log says so; then it is the bot's decision: the title is plain again
    page.wait_for_function("[...document.querySelectorAll('[data-testid=log] li')]"
                           ".some(l => l.textContent.includes('Played by the clock for Maya'))", timeout=15000)
    page.wait_for_function("document.title === 'Tongiaki Online' || document.title.startsWith('● Your turn')")
    assert page.errors == []


MARKS = {"red": "circle", "blue": "square", "green": "triangle", "yellow": "diamond", "orange": "cross",
         "purple": "star"}


def test_every_colour_has_a_mark_of_its_own(browser: Any, contexts: list[Any], base_url: str,
                                             artifacts: Path) -> None:
    """Boats, royal boats and seat chips carry a mark per colour: told apart without seeing colour."""
    page = open_page(browser, contexts, viewport={"width": 1366, "height": 768})
    create_table(page, base_url, name="Maya", seats=6)
    page.click("[data-testid=start-bots]")
    while _wait_kind(page) == "setup":
        step(page)
        page.wait_for_timeout(30)
    boats = page.evaluate("[...document.querySelectorAll('[data-testid=board] .boat')]"
                          ".map(b => [b.dataset.colour, b.dataset.mark, !!b.querySelector('.mark')])")
    assert len({c for c, _, _ in boats}) >= 3, boats   # (bots' voyages may already have sunk a colour's boats)
    for colour, mark, drawn in boats:
        assert mark == MARKS[colour] and drawn, (colour, mark)
    chips = page.evaluate("[...document.querySelectorAll('[data-testid=players] .player')]"
                          ".map(p => [p.dataset.colour, p.querySelector('.swatch').dataset.mark,"
                          " p.querySelector('.swatch path').getAttribute('d')])")
    assert len(chips) == 6
    assert {c: m for c, m, _ in chips} == MARKS
    assert len({d for _, _, d in chips}) == 6, "every pair of marks is drawn differently"
    # as people with each colour-vision deficiency see it (Chromium's own simulation), for the record
    cdp = page.context.new_cdp_session(page)
    page.locator(".zoom-controls button").first.click()
    page.locator(".zoom-controls button").first.click()
    for kind in ("deuteranopia", "protanopia", "tritanopia"):
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": kind})
        page.screenshot(path=str(artifacts / f"22-marks-{kind}-1366.png"))
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
    assert page.errors == []


def _boxes(page: Any) -> list[tuple[str, float, float]]:
    return page.evaluate("[...document.querySelectorAll('[data-testid=board] [data-hit]')]"
                         ".map(e => { const r = e.getBoundingClientRect();"
                         " return [e.dataset.hit, r.width, r.height]; })")


def test_a_phone_board_first_with_thumb_sized_targets(browser: Any, contexts: list[Any], base_url: str,
                                                      artifacts: Path) -> None:
    """At 390×844 (touch): the board fills the screen under the decision bar, the panels are one tap away,
    and every board target's hit area is at least 44×44 CSS px at the default zoom."""
    page = open_page(browser, contexts, viewport=PHONE, touch=True)
    create_table(page, base_url, name="Maya", seats=3)
    page.click("[data-testid=start-bots]")
    seen: dict[str, int] = {}
    small: list[Any] = []
    for _ in range(40):
        kind = _wait_kind(page)
        for hit, w, h in _boxes(page):
            seen[hit] = seen.get(hit, 0) + 1
            if w < 44 or h < 44:
                small.append((kind, hit, round(w), round(h)))
        if kind == "turn" and seen.get("beach"):
            break
        if kind == "setup" and not (artifacts / "23-phone-setup-390.png").exists():
            page.screenshot(path=str(artifacts / "23-phone-setup-390.png"))
        step(page)
        page.wait_for_timeout(50)
    assert seen.get("beach"), seen
    assert small == [], small[:10]
    # the page is no wider than the phone, the board comes first and the panels are one tap away
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    board = page.locator("[data-testid=board]").bounding_box()
    assert board["y"] < 300 and board["height"] > 380, board
    assert not page.locator("[data-testid=players]").is_visible()
    page.screenshot(path=str(artifacts / "24-phone-turn-390.png"))
    page.click("[data-testid=side-tabs] [data-tab=players]")
    assert page.locator("[data-testid=players]").is_visible()
    page.screenshot(path=str(artifacts / "25-phone-players-sheet-390.png"))
    page.click("[data-testid=side-tabs] [data-tab=log]")
    assert page.locator("[data-testid=log]").is_visible() and not page.locator("[data-testid=players]").is_visible()
    page.click("[data-testid=side-tabs] [data-tab=log]")
    assert not page.locator("[data-testid=log]").is_visible()
    assert page.errors == []


ACTIVE_JS = r"""
() => { const e = document.activeElement;
  if (e?.dataset?.hit && e.closest('[data-testid=board]')) return 'hit:' + e.dataset.hit;
  if (e?.tagName === 'SUMMARY') return 'summary';
  return e?.dataset?.action ? 'btn:' + e.dataset.action : (e?.dataset?.legal ? 'legal' : ''); }
"""


def _tab_to(page: Any, want: Any, limit: int = 60) -> str:
    for _ in range(limit):
        page.keyboard.press("Tab")
        a = str(page.evaluate(ACTIVE_JS))
        if want(a):
            return a
    return ""


def test_a_whole_game_with_the_keyboard_alone(browser: Any, contexts: list[Any], base_url: str,
                                              artifacts: Path) -> None:
    """Tab and arrows reach the board's targets (each a named button with a focus ring), Space or Enter
    chooses, Enter confirms or places; the list of every legal move is the way out of anything else."""
    from browserkit import STATE_JS, is_over

    page = open_page(browser, contexts, viewport={"width": 1366, "height": 768})
    create_table(page, base_url, name="Maya", seats=2)
    # a random bot: its games are the shortest (this is about the keyboard, within the time bound below)
    page.click("[data-testid=bot-add-1]")
    page.select_option("[data-testid=bot-level-1]", "random")
    page.wait_for_selector("[data-seat='1'] .tag.bot[data-level=random]")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=board]")
    counts: dict[str, int] = {}
    stuck, last, named, pressed = 0, None, set(), None
    deadline = time.monotonic() + 270   # within the test's own 300 s timeout
    while not is_over(page):
        assert time.monotonic() < deadline, counts
        if page.evaluate(STATE_JS) != "act":
            page.wait_for_timeout(30)
            continue
        dec = page.locator("[data-testid=decision]")
        here = (page.get_attribute("[data-testid=board]", "data-v"), dec.inner_text())
        stuck = stuck + 1 if here == last else 0
        last = here
        try:
            ready = "button[data-action=confirm]:not([disabled]), button[data-action=place]:not([disabled])"
            if dec.locator(ready).count():
                page.keyboard.press("Enter")
                what = "enter"
            elif stuck >= 4:
                # the list of every legal move, by keyboard
                _tab_to(page, lambda a: a == "summary")
                page.keyboard.press("Enter")
                _tab_to(page, lambda a: a == "legal", 3)
                page.keyboard.press("Space")
                what = "list"
            else:
                active = str(page.evaluate(ACTIVE_JS))
                label = page.evaluate("document.activeElement?.getAttribute('aria-label')")
                if active.startswith("hit:") and label == pressed:
                    active = _tab_to(page, lambda a: a.startswith("hit:"))   # on to another target
                need_colour = dec.get_attribute("data-kind") == "land" and dec.locator(
                    'button[data-action^="colour:"]').count() > 1 and not dec.locator(
                    'button[data-action^="colour:"][aria-pressed=true]').count()
                if need_colour:
                    active = _tab_to(page, lambda a: a.startswith("btn:colour:"))
                elif not active.startswith("hit:") or stuck >= 2:
                    active = _tab_to(page, lambda a: a.startswith("hit:"))
                elif stuck:
                    page.keyboard.press("ArrowRight" if stuck % 2 else "ArrowDown")
                if active.startswith("hit:"):
                    named.add(str(page.evaluate("document.activeElement.getAttribute('aria-label')")))
                    if not (artifacts / "26-keyboard-focus-1366.png").exists():
                        page.screenshot(path=str(artifacts / "26-keyboard-focus-1366.png"))
                pressed = page.evaluate("document.activeElement?.getAttribute('aria-label')")
                page.keyboard.press("Space")
                what = active.split(":")[0] or "none"
        except Exception as e:  # the view moved on under the key (a bot acted): look again
            if "Timeout" not in type(e).__name__:
                raise
            what = "retry"
        counts[what] = counts.get(what, 0) + 1
        page.wait_for_timeout(20)
    print("keys:", counts)
    assert counts.get("hit", 0) >= 5, counts
    assert counts.get("list", 0) <= counts.get("hit", 0), counts
    assert any("beach" in n and "moorings" in n for n in named), named
    assert page.errors == []
    page.screenshot(path=str(artifacts / "27-keyboard-game-over-1366.png"))


RESYNC_JS = r"""
() => {
  const app = window.__tongiaki;
  window.__asked = [];
  const request = app.net.request.bind(app.net);
  app.net.request = (event, data) => { window.__asked.push([event, data]); return request(event, data); };
  // what the server sends when its Redis link comes back (docs/protocol.md, `resync`)
  for (const listener of app.net.socket.listeners('resync')) listener({ reason: 'redis' });
}
"""


def test_a_resync_from_the_server_asks_again_for_the_room_and_the_lobby(browser: Any, contexts: list[Any],
                                                                         base_url: str) -> None:
    """After a Redis outage the server tells each socket `resync` (lobby, room and chat events may have
    been lost): in a room the client joins it again from the version it holds; in the lobby it watches
    the lobby again."""
    page = open_page(browser, contexts)
    room = create_table(page, base_url, name="Maya", seats=3)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    page.wait_for_function("window.__tongiaki.room.stream.v !== null")
    page.evaluate(RESYNC_JS)
    page.wait_for_function("window.__asked.some(([e, d]) => e === 'room_join')")
    event, data = page.evaluate("window.__asked.find(([e]) => e === 'room_join')")
    assert data["room"] == room and isinstance(data.get("since"), int), data
    page.click("[data-testid=nav-lobby]")
    page.wait_for_selector("[data-testid=live-rooms]")
    page.evaluate(RESYNC_JS)
    page.wait_for_function("window.__asked.some(([e]) => e === 'lobby_watch')")
    assert page.errors == []


def test_an_answer_to_a_join_that_comes_after_the_person_left_does_not_take_them_back(
        browser: Any, contexts: list[Any], base_url: str) -> None:
    """A rejoin (after a resync or a reconnection) whose answer comes after the person went to the lobby
    leaves them in the lobby; so does a first join answered after they left (the answers are held back
    here, as a slow server would)."""
    page = open_page(browser, contexts)
    room = create_table(page, base_url, name="Maya", seats=3)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    page.wait_for_function("window.__tongiaki.room.stream.v !== null")
    page.evaluate(RESYNC_JS.replace(
        "return request(event, data);",
        "const answer = request(event, data); return event === 'room_join' "
        "? answer.then((r) => new Promise((ok) => setTimeout(() => ok(r), 1500))) : answer;"))
    page.wait_for_function("window.__asked.some(([e]) => e === 'room_join')")
    page.click("[data-testid=nav-lobby]")
    page.wait_for_selector("[data-testid=live-rooms]")
    page.wait_for_timeout(2500)   # the held-back answer has come
    assert page.evaluate("[window.__tongiaki.screen, window.__tongiaki.room]") == ["lobby", None]
    assert page.locator("[data-testid=live-rooms]").is_visible()
    page.evaluate(f"location.hash = '#/room/{room}'")   # a first join, held back too, and they leave at once
    page.wait_for_function("window.__asked.filter(([e]) => e === 'room_join').length >= 2")
    page.click("[data-testid=nav-lobby]")
    page.wait_for_selector("[data-testid=live-rooms]")
    page.wait_for_timeout(2500)
    assert page.evaluate("[window.__tongiaki.screen, window.__tongiaki.room]") == ["lobby", None]
    assert page.errors == []


def test_a_late_spectator_reads_the_game_log_from_its_start(browser: Any, contexts: list[Any], base_url: str) -> None:
    """The server holds the action log: a spectator who opens a game well under way gets the log from the
    first move (before what it sees live), the same lines the game's first watcher logged."""
    first = open_page(browser, contexts)
    room = bots_only_room(first, base_url)   # this page watches from the first move
    first.wait_for_function("() => (window.__tongiaki.room?.stream.v ?? 0) >= 25", timeout=60_000)
    late = open_page(browser, contexts)
    late.goto(f"{base_url}/#/room/{room}")
    late.wait_for_function("() => document.querySelectorAll('[data-testid=log] li').length >= 20", timeout=15_000)
    early = first.locator("[data-testid=log] li").all_inner_texts()
    backfilled = late.locator("[data-testid=log] li").all_inner_texts()
    assert early[:5] == backfilled[:5], (early[:5], backfilled[:5])
    assert not late.errors and not first.errors


LOGGED_JS = r"""
(upTo) => {
  const log = window.__tongiaki.room.log;
  return { v: log.v, events: log.items.filter((it) => it.ev && it.v <= upTo).map((it) => JSON.stringify(it.ev)) };
}
"""


def test_a_reload_while_moves_are_still_being_shown_loses_none_of_the_log(browser: Any, contexts: list[Any],
                                                                         base_url: str) -> None:
    """Each move's lines join the game log as its animation plays, so a page reloaded while moves wait to be
    shown would lose their lines (the reloaded page starts from a snapshot of the present). The log knows
    up to which version it is whole, and the page fills in the versions it missed from the server's action
    log: its lines are then the same as a late spectator's, read from the server alone."""
    watcher = open_page(browser, contexts)
    room = bots_only_room(watcher, base_url, query="?anim=1", seats=3, pace=0.1)   # animations on: they lag
    watcher.wait_for_function("""() => { const r = window.__tongiaki.room;
      return (r?.stream.v ?? 0) >= 12 && r.table.player.queue.pending > 1 && r.log.v !== null; }""",
                              timeout=60_000)
    left_at = watcher.evaluate("() => [window.__tongiaki.room.log.v, window.__tongiaki.room.stream.v]")
    assert left_at[0] < left_at[1], left_at   # moves the page had not shown (nor logged) yet
    watcher.reload()
    watcher.wait_for_selector("[data-testid=board]")
    late = open_page(browser, contexts)
    late.goto(f"{base_url}/?anim=1#/room/{room}")
    late.wait_for_selector("[data-testid=board]")
    # both logs whole up to a version past the reload
    for page in (watcher, late):
        page.wait_for_function(f"() => (window.__tongiaki.room.log.v ?? 0) >= {left_at[1] + 2}", timeout=30_000)
    up_to = min(p.evaluate("() => window.__tongiaki.room.log.v") for p in (watcher, late))
    reloaded, reference = (p.evaluate(LOGGED_JS, up_to) for p in (watcher, late))
    assert len(reference["events"]) > 10
    assert reloaded["events"] == reference["events"]
    assert not watcher.errors and not late.errors


def test_on_a_phone_the_camera_brings_each_drawn_tile_into_view(browser: Any, contexts: list[Any],
                                                                base_url: str) -> None:
    """At 390×844 the board is larger than the screen: every tile a bot's voyage draws and places ends
    inside the board's viewport once its animation is over (the camera followed it). Each tile is looked at
    the moment its flip ends: a bot's chained moves follow at once, so the table rarely rests on a tile."""
    page = open_page(browser, contexts, viewport=PHONE, touch=True)
    bots_only_room(page, base_url, "?anim=4", seats=3, pace=0.3)
    page.wait_for_function("!!window.__tongiaki.room?.table")
    page.evaluate("""() => {
      const t = window.__tongiaki.room.table, b = t.board, flipIn = b.flipIn.bind(b);
      window.__placed = [];
      b.flipIn = async (ctx, cell, ms) => {
        await flipIn(ctx, cell, ms);
        const node = b.svg.querySelector(`.board .tile[data-cell="${cell[0]},${cell[1]}"]`);
        window.__placed.push([`${cell}`, !!node && b.onScreen(node, 0)]);
      }; }""")
    page.wait_for_function("window.__placed.length >= 4", timeout=40_000)
    placed = page.evaluate("window.__placed")
    assert [cell for cell, on_screen in placed if not on_screen] == [], placed
    assert page.errors == []
