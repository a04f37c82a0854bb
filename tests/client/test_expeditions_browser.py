"""Expeditions in a real browser (docs/protocol.md §14, EXPEDITIONS.md E3–E13): a person creates the table
from the lobby form, plays a whole game against a random and a greedy bot through the order form, and
reads each turn's report; a spectator sees who has ordered, never what. Screens of the order form and a
turn report at 1366×768 and 390×844 go to test-artifacts/client/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import open_page

DESKTOP = {"width": 1366, "height": 768}
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
    else pass. Returns what was sent."""
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
    # the order form: the rule it follows, moves left, a countdown that runs
    assert "E4" in page.inner_text("[data-testid=order-rule]")
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
    assert any("TONG N" in s for s in steps) and any(s.startswith(("Scores", "Game over")) for s in steps), steps
    page.wait_for_selector("[data-testid=report-focus]", state="attached")
    page.screenshot(path=str(artifacts / f"41-expeditions-turn-report-{tag}.png"), full_page=tag == "phone")
    left = int(page.get_attribute("[data-testid=countdown]", "data-ms") or 0)
    assert left > 20_000, "a new turn's deadline starts afresh"
    sent = []
    for _turn in range(11):
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
    assert "W+2" in host.inner_text("[data-testid=order-sent]")
    assert watcher.inner_text("[data-testid=order-form]").strip().endswith("You are watching.")
    guest.wait_for_selector("[data-testid=order-send]")
    guest.click("[data-kind=pass]")
    guest.click("[data-testid=order-send]")
    watcher.wait_for_selector("[data-testid=report-steps] li")
    assert "TONG W+2" in watcher.inner_text("[data-testid=report-steps]")
    # someone who opens the game later (back after a day) reads the reports of the turns played meanwhile
    late = open_page(browser, contexts, viewport=DESKTOP)
    late.goto(f"{base_url}/#/room/{room}")
    late.wait_for_selector("[data-testid=report-steps] li")
    assert "TONG W+2" in late.inner_text("[data-testid=report-steps]")
    assert late.inner_text("[data-testid=report-turn]").strip() == "Turn 1"
    for page in (host, guest, watcher, late):
        assert not page.errors, page.errors
