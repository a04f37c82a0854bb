"""Expeditions in a real browser (docs/protocol.md §14, EXPEDITIONS.md E3–E13): a person creates the table
from the lobby form, plays a whole game against a random and a greedy bot through the order form, and
reads each turn's report; a spectator sees who has ordered, never what. Screens of the order form and a
turn report at 1366×800 and 390×844 go to test-artifacts/client/."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import open_page

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def create_expeditions_table(page: Any, base_url: str) -> str:
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=create-game]")
    page.select_option("[data-testid=create-game]", "expeditions")
    assert page.locator("[data-testid=two-colours]").is_hidden()   # no variants in Expeditions
    page.select_option("[data-testid=seats]", "3")
    page.select_option("[data-testid=create-deadline]", "30")
    page.fill("[data-testid=bot-pace]", "0")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=start-bots]")
    room = page.evaluate("() => window.__tongiaki.room.id")
    return room


def expand_or_pass(page: Any) -> str:
    """One order: every move the island allows onto one beach (the order form offers only what is legal),
    else pass. Returns what was sent. A report still playing is skipped first, as a person in a hurry does
    (on a phone the order sheet steps aside while it plays)."""
    if page.locator("[data-testid=report-skip]").count():
        page.click("[data-testid=report-skip]")
    for side in "SNEW":
        while page.locator(f"[data-testid=plus-{side}]:not([disabled])").count():
            page.click(f"[data-testid=plus-{side}]")
        if page.locator("[data-testid=order-send]:not([disabled])").count():
            break
    if not page.locator("[data-testid=order-send]:not([disabled])").count():
        page.click("[data-kind=pass]")
        sent = "pass"
    else:
        sent = "expand"
    turn = page.evaluate("() => window.__tongiaki.room.stream.view.turn")
    page.click("[data-testid=order-send]")
    # the bots ordered already: the order is in, or (usually) the turn resolved at once
    page.wait_for_function("""(turn) => { const r = window.__tongiaki.room, v = r.stream.view;
      return v.turn > turn || v.phase === 'over' || !!(r.tableState.legal && r.tableState.legal.order); }""", arg=turn)
    return sent


@pytest.mark.parametrize("viewport,tag", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_whole_expeditions_game_with_bots_through_the_order_form(browser: Any, contexts: list[Any], base_url: str,
                                                                  artifacts: Path, viewport: dict[str, int],
                                                                  tag: str) -> None:
    page = open_page(browser, contexts, viewport=viewport)
    create_expeditions_table(page, base_url)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=order-send]")
    # the order form: what the order means in plain words (E4), moves left, a countdown that runs
    assert "Tonga gives every player 2 boat moves" in page.inner_text("[data-testid=order-rule]")
    assert "2" in page.inner_text("[data-testid=moves-left]")
    first = int(page.get_attribute("[data-testid=countdown]", "data-ms") or 0)
    assert 25_000 < first <= 30_000
    page.click("[data-testid=plus-N]")
    # a half-made order outlives a reload of the page (the same turn, this tab: client/src/ui/draft.js)
    page.reload()
    page.wait_for_selector("[data-testid=order-send]")
    assert page.inner_text("[data-testid=order-form] .stepper[data-side=N] output") == "1"
    page.click("[data-testid=plus-E]")
    assert page.locator("[data-testid=plus-S][disabled]").count() == 1, "Tonga gives 2 moves: no third"
    page.screenshot(path=str(artifacts / f"40-expeditions-order-form-{tag}.png"), full_page=tag == "phone")
    page.click("[data-testid=order-send]")
    # the bots ordered at once: the turn resolves, its report is listed and stepped through on the map
    page.wait_for_selector("[data-testid=report-steps] li")
    steps = page.locator("[data-testid=report-steps] li").all_inner_texts()
    assert any("expand on Tonga (1 boat onto the north beach, 1 boat onto the east beach)" in s for s in steps), steps
    assert any(s.startswith(("Scores", "Game over")) for s in steps), steps
    page.wait_for_selector("[data-testid=report-focus]", state="attached")
    page.screenshot(path=str(artifacts / f"41-expeditions-turn-report-{tag}.png"), full_page=tag == "phone")
    left = int(page.get_attribute("[data-testid=countdown]", "data-ms") or 0)
    assert left > 20_000, "a new turn's deadline starts afresh"
    sent = []
    for _turn in range(11):
        if page.locator("[data-testid=report-skip]").count():   # (a phone's order sheet steps aside meanwhile)
            page.click("[data-testid=report-skip]")
        page.wait_for_selector("[data-testid=order-send], [data-testid=result]:not([hidden])", timeout=30_000)
        if page.locator("[data-testid=result]:not([hidden])").count():
            break
        sent.append(expand_or_pass(page))
    page.wait_for_selector("[data-testid=result]:not([hidden])", timeout=30_000)
    result = page.inner_text("[data-testid=result]")
    assert "Bot 1" in result and "Bot 2" in result, result
    reports = page.evaluate("() => window.__tongiaki.room.table.reports.length")
    assert reports == len(sent) + 1 and 1 <= reports <= 10
    page.click("[data-testid=report-prev]")
    assert page.inner_text("[data-testid=report-turn]").strip() == f"Turn {reports - 1}"
    page.screenshot(path=str(artifacts / f"42-expeditions-over-{tag}.png"), full_page=tag == "phone")
    assert not page.errors, page.errors


def test_a_spectator_sees_who_has_ordered_never_what(browser: Any, contexts: list[Any], base_url: str) -> None:
    host = open_page(browser, contexts, viewport=DESKTOP)
    room = create_expeditions_table(host, base_url)
    guest = open_page(browser, contexts, viewport=DESKTOP)
    guest.goto(f"{base_url}/#/room/{room}")
    guest.wait_for_selector("[data-testid=sit-1]")
    guest.click("[data-testid=sit-1]")
    host.wait_for_function("() => window.__tongiaki.room.state.seats[1].kind === 'human'")
    host.click("[data-testid=start-bots]")
    watcher = open_page(browser, contexts, viewport=DESKTOP)
    watcher.goto(f"{base_url}/#/room/{room}")
    watcher.wait_for_selector("[data-testid=ordered-red]")
    host.wait_for_selector("[data-testid=order-send]")
    host.click("[data-testid=plus-W]")
    host.click("[data-testid=plus-W]")
    host.click("[data-testid=order-send]")
    watcher.wait_for_selector("[data-colour=red][data-submitted=yes]")
    # the host's order is in, the guest's is not: nobody else's page holds the order's content
    for page in (guest, watcher):
        held = page.evaluate("() => JSON.stringify([window.__tongiaki.room.stream.view,"
                             " window.__tongiaki.room.stream.legal])")
        assert '"W":2' not in held, held
    assert "expand on Tonga (2 boats onto the west beach)" in host.inner_text("[data-testid=order-sent]")
    # a spectator has no order form: the status line says they watch, as at a Tongiaki table
    assert watcher.locator("[data-testid=order-form]").is_hidden()
    assert watcher.inner_text("[data-testid=spectator]") == "Spectator"
    guest.wait_for_selector("[data-testid=order-send]")
    guest.click("[data-kind=pass]")
    guest.click("[data-testid=order-send]")
    watcher.wait_for_selector("[data-testid=report-steps] li")
    assert "expand on Tonga (2 boats onto the west beach)" in watcher.inner_text("[data-testid=report-steps]")
    # someone who opens the game later (back after a day) reads the reports of the turns played meanwhile
    late = open_page(browser, contexts, viewport=DESKTOP)
    late.goto(f"{base_url}/#/room/{room}")
    late.wait_for_selector("[data-testid=report-steps] li")
    assert "expand on Tonga (2 boats onto the west beach)" in late.inner_text("[data-testid=report-steps]")
    assert late.inner_text("[data-testid=report-turn]").strip() == "Turn 1"
    for page in (host, guest, watcher, late):
        assert not page.errors, page.errors


# Codes a player should never read: a sea tile's id, an island's abbreviation, a cell's numbers.
CODES = r"\bS\d\d\b|\b(TONG|MURO|NAUR|TUBU|RARO|RAPA|TOKE|TUAM|HIVA|MANG|OAHU|TAHI|TUVA|FIDS|HAWA|SAMO)\b|\b\d+,\d+\b"
SIZES = [pytest.param(DESKTOP, False, id="desktop"), pytest.param(PHONE, True, id="phone")]

IN_VIEW_JS = r"""
(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + Math.min(r.height, innerHeight) / 3;
  const hit = document.elementFromPoint(cx, cy);
  return r.top >= -1 && r.top < innerHeight / 2 && r.height > 150 && !!hit
    && document.querySelector(sel).contains(hit); }
"""


def started_game(page: Any, base_url: str) -> None:
    """A game of three with two beginner bots that order at once, this page at its first order form."""
    create_expeditions_table(page, base_url)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=order-send]")


CONTRAST_JS = r"""
(e) => {   // WCAG 2 contrast of an element's text on its own background, as drawn now
  const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const s = getComputedStyle(e), [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05); }
"""


def test_the_deadline_stays_readable_in_its_last_seconds(browser: Any, contexts: list[Any], base_url: str,
                                                         artifacts: Path) -> None:
    """The last 10 s of the turn's deadline turn the countdown red: its figures stay readable on it (they
    were red on red: an Expeditions rule coloured them like the pill)."""
    page = open_page(browser, contexts, viewport=PHONE, touch=True)
    started_game(page, base_url)
    clock = page.locator(".ex-clock [data-testid=countdown]")
    assert clock.evaluate(CONTRAST_JS) >= 4.5
    # as its ticker draws the last seconds (in one turn of the page: the next tick draws it afresh)
    warned = clock.evaluate(f"(e) => {{ e.classList.add('warn'); e.style.animation = 'none';"
                            f" return [({CONTRAST_JS})(e), getComputedStyle(e).color]; }}")
    assert warned[0] >= 4.5, warned
    page.screenshot(path=str(artifacts / "44-expeditions-deadline-warning-phone.png"))
    assert page.errors == []


@pytest.mark.parametrize(("viewport", "touch"), SIZES)
def test_the_order_form_and_the_report_speak_in_words(browser: Any, contexts: list[Any], base_url: str,
                                                      artifacts: Path, viewport: dict[str, int], touch: bool) -> None:
    """E4, E13: islands by name, sea tiles drawn with their weather, the order's meaning in plain words, the
    map's legend; the report in sentences, its current sentence over the map while it plays, Skip; on a
    phone the form is a sheet over the map's foot and the map stays in view while the report plays."""
    tag = "phone" if touch else "desktop"
    page = open_page(browser, contexts, viewport=viewport, touch=touch)
    started_game(page, base_url)
    svg_text = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=board] text')].map((x) => x.textContent).join(' ')")
    assert "Tonga" in svg_text and not re.search(CODES, svg_text), svg_text
    assert page.locator("[data-testid=board] .sea .factor").count() >= 16   # 4 sea tiles, 2 routes, 2 ends
    assert "Weather at a route’s end" in page.text_content("[data-testid=map-legend]")
    page.click("[data-testid=plus-N]")
    page.click("[data-testid=plus-N]")
    rule = page.inner_text("[data-testid=order-rule]")
    assert "Tonga gives every player 2 boat moves" in rule and "This order: 2 boats onto the north beach." in rule, rule
    assert page.inner_text("[data-testid=order-form] .stepper[data-side=N] .side-name") == "north"
    if touch:
        sheet = page.evaluate("""() => { const f = document.querySelector('[data-testid=order-form]');
          const r = f.getBoundingClientRect();
          return [getComputedStyle(f).position, Math.round(r.bottom), innerHeight]; }""")
        assert sheet[0] == "fixed" and abs(sheet[1] - sheet[2]) <= 1, sheet
        assert page.evaluate(IN_VIEW_JS, "[data-testid=board]"), "the map is in view above the sheet"
    page.screenshot(path=str(artifacts / f"43-expeditions-words-form-{tag}.png"))
    page.click("[data-testid=order-send]")
    # the bots ordered at once: the report plays, its sentence over the map, with a Skip button
    page.wait_for_selector("[data-testid=report-caption]:not([hidden])")
    if touch:
        assert page.evaluate(IN_VIEW_JS, "[data-testid=board]"), "the map stays in view while the report plays"
        # nothing wider than the phone (a wider page makes a phone's browser zoom the whole page out)
        assert page.evaluate("() => [innerWidth, document.documentElement.scrollWidth]") == [390, 390]
    page.screenshot(path=str(artifacts / f"44-expeditions-words-report-{tag}.png"))
    page.click("[data-testid=report-skip]")
    assert page.evaluate("() => window.__tongiaki.room.table.animating") is False
    page.wait_for_selector("[data-testid=report-caption]", state="hidden")
    steps = page.locator("[data-testid=report-steps] li").all_inner_texts()
    assert steps[0].startswith("Orders: ") and "expand on Tonga (2 boats onto the north beach)" in steps[0], steps
    for line in steps:
        assert not re.search(CODES, line), line
        assert line.rstrip().endswith((".", "!")) or \
            line.startswith(("Orders", "Scores", "Game over", "Deadline")), line
    assert page.evaluate("() => { const t = window.__tongiaki.room.table; "
                         "return t.step === t.reports[t.shownReport].events.length - 1; }")
    assert not page.errors, page.errors


def test_an_earlier_turn_is_shown_on_the_map_as_it_was(browser: Any, contexts: list[Any], base_url: str,
                                                       artifacts: Path) -> None:
    """E13: "Previous turn" shows the map that turn left (its tiles and boats), not today's; a button goes
    back to today's map."""
    page = open_page(browser, contexts, viewport=DESKTOP)
    started_game(page, base_url)
    for _turn in range(2):   # Tonga's north beach past 3 boats on the second turn: a fleet sails
        page.wait_for_selector("[data-testid=order-send], [data-testid=result]:not([hidden])")
        if page.locator("[data-testid=result]:not([hidden])").count():
            break
        page.click("[data-testid=plus-N]")
        page.click("[data-testid=plus-N]")
        turn = page.evaluate("() => window.__tongiaki.room.stream.view.turn")
        page.click("[data-testid=order-send]")
        page.wait_for_function("(turn) => window.__tongiaki.room.stream.view.turn > turn"
                               " || window.__tongiaki.room.stream.view.phase === 'over'", arg=turn)
    page.wait_for_function("() => window.__tongiaki.room.table.reports.length >= 2")
    if page.locator("[data-testid=report-skip]").count():
        page.click("[data-testid=report-skip]")
    page.click("[data-testid=report-prev]")
    page.wait_for_selector("[data-testid=report-then]:not([hidden])")
    shown, then, now = page.evaluate("""() => { const t = window.__tongiaki.room.table;
      const key = (v) => JSON.stringify(v.tiles.map((x) => [x.tile, x.beaches || null]).sort());
      const onMap = [...document.querySelectorAll('[data-testid=board] .tile')].map((g) => g.dataset.tile).sort();
      const then = t.reports[t.shownReport].view;
      return [onMap, then.tiles.map((x) => x.tile).sort(), key(t.view) === key(then)]; }""")
    assert shown == then, (shown, then)
    assert not now, "the earlier turn's map differs from today's (boats moved on)"
    assert page.get_attribute("[data-testid=board]", "data-turn-shown") == page.inner_text(
        "[data-testid=report-turn]").split()[-1]
    assert "The map after turn" in page.inner_text("[data-testid=report-then]")
    page.screenshot(path=str(artifacts / "45-expeditions-earlier-turn-desktop.png"))
    page.click("[data-testid=report-today]")
    assert page.get_attribute("[data-testid=board]", "data-turn-shown") == "now"
    # after a reload the reports come back by the catch-up, and the maps they left from this tab's storage
    page.reload()
    page.wait_for_function("() => (window.__tongiaki.room?.table?.reports || []).length >= 2")
    if page.locator("[data-testid=report-skip]").count():
        page.click("[data-testid=report-skip]")
    page.click("[data-testid=report-prev]")
    page.wait_for_selector("[data-testid=report-then]:not([hidden])")
    again = page.evaluate("""() => [...document.querySelectorAll('[data-testid=board] .tile')]
      .map((g) => g.dataset.tile).sort()""")
    assert page.get_attribute("[data-testid=board]", "data-turn-shown") != "now"
    assert again == shown, (again, shown)
    assert not page.errors, page.errors


@pytest.mark.parametrize(("viewport", "touch"), SIZES)
def test_an_earlier_turns_map_comes_from_the_server_on_another_device(browser: Any, contexts: list[Any],
                                                                      base_url: str, artifacts: Path,
                                                                      viewport: dict[str, int], touch: bool) -> None:
    """E13 on any device: the person plays two turns on a computer, then opens the game on another device
    (a fresh browser, signed in as the same person: none of the first one's storage) and so does a
    spectator; "Previous turn" shows each of them the map turn 1 left, fetched from the server's replay of
    the game so far (docs/protocol.md §12), the same map the first page showed, not today's."""
    tag = "phone" if touch else "desktop"
    first = open_page(browser, contexts, viewport=DESKTOP)
    started_game(first, base_url)
    room = first.evaluate("() => window.__tongiaki.room.id")
    for _turn in range(2):   # Tonga's north beach past 3 boats on the second turn: a fleet sails
        first.wait_for_selector("[data-testid=order-send]")
        first.click("[data-testid=plus-N]")
        first.click("[data-testid=plus-N]")
        turn = first.evaluate("() => window.__tongiaki.room.stream.view.turn")
        first.click("[data-testid=order-send]")
        first.wait_for_function("(turn) => window.__tongiaki.room.stream.view.turn > turn", arg=turn)
    first.wait_for_function("() => window.__tongiaki.room.table.reports.length >= 2")
    turn_one = first.evaluate("""() => { const r = window.__tongiaki.room.table.reports.find((x) => x.turn === 1);
      return r.view.tiles.map((x) => [x.tile, x.beaches || null]).sort(); }""")
    token = first.evaluate("() => localStorage.getItem('tongiaki.token')")
    spectator = open_page(browser, contexts, viewport=viewport, touch=touch)
    device = open_page(browser, contexts, viewport=viewport, touch=touch)
    device.context.add_init_script(f"localStorage.setItem('tongiaki.token', {token!r})")
    for page, who in ((device, "player"), (spectator, "spectator")):
        page.goto(f"{base_url}/?lang=en#/room/{room}")
        page.wait_for_function("() => (window.__tongiaki?.room?.table?.reports || []).length >= 2")
        if page.locator("[data-testid=report-skip]").count():
            page.click("[data-testid=report-skip]")
        while page.get_attribute("[data-testid=board]", "data-turn-shown") != "1":
            page.click("[data-testid=report-prev]")
        page.wait_for_selector("[data-testid=report-then]:not([hidden])")
        assert "The map after turn 1" in page.inner_text("[data-testid=report-then]"), who
        shown, drawn, today = page.evaluate("""() => { const t = window.__tongiaki.room.table;
          const then = t.reports[t.shownReport].view;
          const key = (v) => JSON.stringify(v.tiles.map((x) => [x.tile, x.beaches || null]).sort());
          return [then.tiles.map((x) => [x.tile, x.beaches || null]).sort(),
                  [...document.querySelectorAll('[data-testid=board] .tile')].map((g) => g.dataset.tile).sort(),
                  key(t.view) === key(then)]; }""")
        assert shown == turn_one, who   # the map turn 1 left, as the first page kept it
        assert drawn == sorted(x[0] for x in turn_one), who
        assert not today, f"{who}: the boats moved on since turn 1: today's map differs"
        page.screenshot(path=str(artifacts / f"46-expeditions-earlier-turn-{who}-{tag}.png"))
        if touch:
            assert page.evaluate(IN_VIEW_JS, "[data-testid=board]"), "the earlier map is in view"
        assert not page.errors, page.errors
    if device.locator("[data-testid=report-today]").count():
        device.click("[data-testid=report-today]")
        assert device.get_attribute("[data-testid=board]", "data-turn-shown") == "now"


@pytest.mark.parametrize(("viewport", "touch"), SIZES)
def test_a_lesson_of_expeditions_and_its_rules_section(browser: Any, contexts: list[Any], base_url: str,
                                                      artifacts: Path, viewport: dict[str, int], touch: bool) -> None:
    """How to play: the Expeditions lessons are listed; the migration lesson is played through the real
    order form (E6-E8: the fourth boat sails, two colours cross a weather of 2, Oahu is found); a legal
    order that is not the lesson's is refused; the rules page has an Expeditions section, its pictures
    drawn by the map renderer."""
    tag = "phone" if touch else "desktop"
    page = open_page(browser, contexts, viewport=viewport, touch=touch)
    page.goto(base_url + "/?lang=en#/learn")
    page.wait_for_selector("[data-testid=ex-lessons] a")
    assert page.locator("[data-testid=ex-lessons] li").count() == 5
    page.goto(base_url + "/?lang=en#/learn/ex_migration")
    page.wait_for_selector("[data-testid=order-send]")
    assert "expand on Tonga (1 boat onto the north beach)" in page.inner_text("[data-testid=tutorial-move]")
    page.click("[data-testid=plus-E]")
    page.click("[data-testid=order-send]")
    page.wait_for_selector("[data-testid=tutorial-not-quite]")
    page.click("[data-testid=minus-E]")
    page.click("[data-testid=plus-N]")
    assert "Tonga's north beach will hold 4 boats" in page.inner_text("[data-testid=order-rule]")
    page.screenshot(path=str(artifacts / f"46-expeditions-lesson-form-{tag}.png"))
    page.click("[data-testid=order-send]")
    page.wait_for_selector("[data-testid=tutorial-state][data-state=done]")
    steps = " ".join(page.locator("[data-testid=report-steps] li").all_inner_texts())
    assert "It lands on Oahu" in steps and "sails north from Tonga's north beach" in steps, steps
    page.wait_for_function("() => !document.querySelector('[data-testid=report-skip]')")
    page.screenshot(path=str(artifacts / f"47-expeditions-lesson-done-{tag}.png"), full_page=True)
    page.goto(base_url + "/?lang=en#/rules")
    page.wait_for_selector("[data-rule='rules.ex.migration'] .rule-board svg .tile")
    for rule, tiles in (("rules.ex.orders", 5), ("rules.ex.migration", 6), ("rules.ex.end", 8)):
        assert page.locator(f"[data-rule='{rule}'] .rule-board svg .tile").count() == tiles, rule
    page.locator("[data-rule='rules.ex.goal']").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"48-expeditions-rules-{tag}.png"))
    assert not page.errors, page.errors


def test_an_order_is_changed_and_withdrawn_until_the_turn_resolves_and_the_clock_waits_for_the_report(
        browser: Any, contexts: list[Any], base_url: str, artifacts: Path) -> None:
    """E3: an order that is in may be changed or taken back until the turn resolves; the other person sees
    only whether one is in. docs/protocol.md §14: the next turn's clock starts once both people have seen
    the report (here: skipped it), not before."""
    host = open_page(browser, contexts, viewport=DESKTOP)
    room = create_expeditions_table(host, base_url)
    guest = open_page(browser, contexts, viewport=PHONE, touch=True)
    guest.goto(f"{base_url}/#/room/{room}")
    guest.wait_for_selector("[data-testid=sit-1]")
    guest.click("[data-testid=sit-1]")
    host.wait_for_function("() => window.__tongiaki.room.state.seats[1].kind === 'human'")
    host.click("[data-testid=start-bots]")
    host.wait_for_selector("[data-testid=order-send]")
    host.click("[data-testid=plus-N]")
    host.click("[data-testid=plus-N]")
    host.click("[data-testid=order-send]")
    host.wait_for_selector("[data-testid=order-sent]")
    assert "2 boats onto the north beach" in host.inner_text("[data-testid=order-sent]")
    guest.wait_for_selector("[data-colour=red][data-submitted=yes]")
    # changed: the form again, a pass sent instead
    host.click("[data-testid=order-change]")
    host.click("[data-kind=pass]")
    host.click("[data-testid=order-send]")
    host.wait_for_selector("[data-testid=order-sent]:has-text('pass')")
    assert "left" in host.inner_text("[data-testid=changes-left]")
    host.screenshot(path=str(artifacts / "49-expeditions-order-in-desktop.png"))
    # withdrawn: nothing in, the others see it
    host.click("[data-testid=order-withdraw]")
    host.wait_for_selector("[data-testid=order-send]")
    guest.wait_for_selector("[data-colour=red][data-submitted=no]")
    host.click("[data-kind=expand]")
    host.click("[data-testid=plus-W]")
    host.click("[data-testid=plus-W]")
    host.click("[data-testid=order-send]")
    host.wait_for_selector("[data-testid=order-sent]")
    guest.wait_for_selector("[data-testid=order-send]")
    guest.click("[data-kind=pass]")
    guest.click("[data-testid=order-send]")
    for page in (host, guest):
        page.wait_for_selector("[data-testid=report-steps] li")
    # the order in at the end is the one played (the host's, red, comes first): not the north beach, not a pass
    red = host.inner_text("[data-testid=report-steps] li:first-child").split(" · ")[0]
    assert red.endswith("(Red): expand on Tonga (2 boats onto the west beach)"), red
    # the report plays on both pages: the clock waits until both have seen it
    assert host.get_attribute("[data-testid=countdown]", "data-waits") == "yes"
    if host.locator("[data-testid=report-skip]").count():
        host.click("[data-testid=report-skip]")
    host.wait_for_timeout(600)   # the host's report_seen is in; the guest's report still plays
    if guest.locator("[data-testid=report-skip]").count():
        assert host.get_attribute("[data-testid=countdown]", "data-waits") == "yes"
        guest.locator("[data-testid=report-skip]").tap()
    host.wait_for_function("() => document.querySelector('[data-testid=countdown]').dataset.waits === 'no'")
    left = int(host.get_attribute("[data-testid=countdown]", "data-ms") or 0)
    assert 25_000 < left <= 30_000, left
    for page in (host, guest):
        assert not page.errors, page.errors


def test_a_person_holding_two_seats_makes_changes_and_withdraws_each_seats_order(
        browser: Any, contexts: list[Any], base_url: str) -> None:
    """One person at two seats (a hot seat) picks the seat whose order the form makes; the
    second seat's order, and the first one's while the second has none in, are changed and withdrawn on
    their own (a change does not go to whichever seat has no order in)."""
    host = open_page(browser, contexts, viewport=PHONE, touch=True)
    room = create_expeditions_table(host, base_url)
    assert host.evaluate("(room) => window.__tongiaki.net.request('sit', {room, seat: 1})", room)["ok"]
    host.wait_for_function("() => window.__tongiaki.room.state.seats[1].kind === 'human'")
    host.click("[data-testid=start-bots]")
    host.wait_for_selector("[data-testid=order-seat-blue]")
    submitted = "(c) => window.__tongiaki.room.stream.view.players.find((p) => p.colour === c).submitted"

    def order_then_pass(colour: str, direction: str) -> None:
        """The seat's order sent, then changed to a pass."""
        host.click(f"[data-testid=order-seat-{colour}]")
        host.click(f"[data-testid=plus-{direction}]")
        host.click("[data-testid=order-send]")
        host.wait_for_selector("[data-testid=order-sent]")
        host.click("[data-testid=order-change]")
        host.click("[data-kind=pass]")
        host.click("[data-testid=order-send]")
        host.wait_for_selector("[data-testid=order-sent]:has-text('pass')")

    # red's order in, then changed to a pass and withdrawn, blue's form untouched
    order_then_pass("red", "N")
    assert host.evaluate(submitted, "red") and not host.evaluate(submitted, "blue")
    host.click("[data-testid=order-withdraw]")
    host.wait_for_function(f"() => !({submitted})('red')")
    # blue's (the second seat's) order in, changed, withdrawn
    order_then_pass("blue", "S")
    host.click("[data-testid=order-withdraw]")
    host.wait_for_function(f"() => !({submitted})('blue') && !({submitted})('red')")
    assert host.evaluate("() => window.__tongiaki.room.stream.view.turn") == 1
    # both in: the turn resolves with each seat's own order
    host.click("[data-kind=expand]")
    host.click("[data-testid=plus-W]")
    host.click("[data-testid=order-send]")
    host.wait_for_selector("[data-testid=order-sent]")
    host.click("[data-testid=order-seat-red]")
    host.click("[data-kind=pass]")
    host.click("[data-testid=order-send]")
    host.wait_for_selector("[data-testid=report-steps] li")
    steps = host.inner_text("[data-testid=report-steps]")
    assert "(Blue): expand on Tonga (1 boat onto the west beach)" in steps, steps
    assert not host.errors, host.errors


@pytest.fixture(scope="module")
def finished_expeditions(browser: Any, base_url: str) -> Iterator[str]:
    """A finished Expeditions game of three bots (its person stood up before the start): its room's id."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(base_url + "/")
        page.wait_for_selector("[data-testid=create-form]")
        room = str(page.evaluate("""async () => {
          const net = window.__tongiaki.net;
          const made = await net.request('room_create', { name: 'Bots at sea', game: 'expeditions', seats: 3,
            clock: 30, bot_pace: 0 });
          await net.request('stand', { room: made.room.id, seat: 0 });
          await net.request('room_start', { room: made.room.id, fill_with_bots: true });
          return made.room.id; }"""))
    finally:
        ctx.close()
    deadline = time.monotonic() + 180
    while True:
        try:
            with urllib.request.urlopen(f"{base_url}/api/games/{room}", timeout=10) as r:
                if not json.load(r).get("live"):
                    break
        except OSError:   # no record yet (404) while the game starts
            pass
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.5)
    yield room


# Each language's "Turn 1" and the start of the revealed orders' sentence (client/src/lang/*.js).
TURN_ONE = {"en": ("Turn 1", "Orders: "), "fr": ("Tour 1", "Ordres : "), "nl": ("Beurt 1", "Orders: "),
            "de": ("Runde 1", "Befehle: "), "he": ("תור 1", "פקודות: ")}


@pytest.mark.parametrize(("viewport", "touch"), SIZES)
def test_a_replay_tells_each_replayed_turns_report(browser: Any, contexts: list[Any], base_url: str,
                                                   artifacts: Path, finished_expeditions: str,
                                                   viewport: dict[str, int], touch: bool) -> None:
    """E13 in a replay (#/replay/<id>): opened at the game's start, the turn report panel tells the first
    turn's report ahead, in sentences (no code of a tile or a cell), stepped through on the map that turn
    left; each later turn's report once the replay reaches it; in each of the five languages."""
    tag = "phone" if touch else "desktop"
    room = finished_expeditions
    with urllib.request.urlopen(f"{base_url}/api/games/{room}/replay", timeout=10) as r:
        frames = json.load(r)["frames"]
    resolved = [f for f in frames if any(e["type"] == "orders" for e in f["events"])]
    assert len(resolved) >= 2
    page = open_page(browser, contexts, viewport=viewport, touch=touch)
    page.goto(f"{base_url}/?anim=0#/replay/{room}")
    page.wait_for_selector("[data-testid=report-steps] li")
    assert page.get_attribute("[data-testid=replay-pos]", "data-v") == "0"
    assert page.inner_text("[data-testid=report-turn]").strip() == "Turn 1"
    steps = page.locator("[data-testid=report-steps] li").all_inner_texts()
    first = resolved[0]["events"]
    assert len(steps) == len(first) - [e["type"] for e in first].index("orders"), steps
    assert steps[0].startswith("Orders: Bot 1 (Red): "), steps
    assert any(s.startswith("Scores: ") for s in steps), steps
    for line in steps:
        assert not re.search(CODES, line), line
    assert "appear here" not in page.inner_text("[data-testid=turn-report]")
    # the map stays the game's start until a step of the report is chosen: then the map turn 1 left
    assert page.get_attribute("[data-testid=board]", "data-turn-shown") == "now"
    page.locator("[data-testid=report-steps] li").last.click()
    assert page.get_attribute("[data-testid=board]", "data-turn-shown") == "1"
    # its way back names the replay's moment, not a live table's "today"
    assert page.inner_text("[data-testid=report-today]").strip() == "Back to the map of this moment"
    page.screenshot(path=str(artifacts / f"45-expeditions-replay-report-{tag}.png"), full_page=touch)
    page.click("[data-testid=report-today]")
    assert page.get_attribute("[data-testid=board]", "data-turn-shown") == "now"
    page.locator("[data-testid=report-steps] li").last.click()
    # the replay's next turn: turn 1 resolved, its report; the one after: turn 2's
    page.click("[data-testid=replay-next-turn]")
    page.wait_for_function("(v) => document.querySelector('[data-testid=replay-pos]').dataset.v === String(v)",
                           arg=resolved[0]["v"])
    assert page.inner_text("[data-testid=report-turn]").strip() == "Turn 1"
    page.click("[data-testid=replay-next-turn]")
    page.wait_for_function("(v) => document.querySelector('[data-testid=replay-pos]').dataset.v === String(v)",
                           arg=resolved[1]["v"])
    assert page.inner_text("[data-testid=report-turn]").strip() == "Turn 2"
    assert page.locator("[data-testid=report-steps] li").first.inner_text().startswith("Orders: ")
    page.screenshot(path=str(artifacts / f"46-expeditions-replay-turn-2-{tag}.png"), full_page=touch)
    # the same report in every language of the page
    for lang, (turn_one, orders) in TURN_ONE.items():
        page.goto(f"{base_url}/?anim=0&lang={lang}#/replay/{room}")
        page.wait_for_selector(f"html[lang={lang}] [data-testid=report-steps] li")
        assert page.inner_text("[data-testid=report-turn]").strip() == turn_one, lang
        words = page.locator("[data-testid=report-steps] li").all_inner_texts()
        assert words[0].startswith(orders) and len(words) == len(steps), (lang, words[:2])
        for line in words:
            assert not re.search(CODES, line), (lang, line)
    assert not page.errors, page.errors
