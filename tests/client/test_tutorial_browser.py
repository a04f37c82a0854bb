"""How to play in Chromium: every lesson completed by following its own instructions (the move the guide
names, picked from the decision's list of moves as a person reading it would), in two languages; the
progress kept; the rules page drawn with the client's own board renderer. Screenshots of both."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import PHONE, open_page

LESSONS = ["setup", "expand", "voyage", "sinking", "landing", "chain", "royal", "turn_back", "colonise", "end"]

STATE_JS = r"""
() => { const l = window.__tongiaki.lesson; const t = l && l.table;
        if (!t || !l.lessonState) return null;
        return {step: l.lessonState.step, state: document.querySelector('[data-testid=tutorial-state]').dataset.state,
                busy: t.queue.busy || t.animating || l.state.shown !== l.state.target,
                move: document.querySelector('[data-testid=tutorial-move-text]')?.textContent || null}; }
"""

MOVE_INDEX_JS = r"""
(text) => [...document.querySelectorAll('[data-testid=decision] .move-list button')]
  .findIndex((b) => b.textContent === text)
"""


def lesson_state(page: Any, timeout: float = 15.0) -> dict[str, Any]:
    """The lesson once nothing is animating."""
    deadline = time.monotonic() + timeout
    while True:
        state = page.evaluate(STATE_JS)
        if state and not state["busy"] and (state["move"] or state["state"] != "playing"):
            return dict(state)
        assert time.monotonic() < deadline, state
        time.sleep(0.05)


def make_guide_move(page: Any, state: dict[str, Any]) -> None:
    """Make the move the guide names (from the decision bar's list of moves) and wait for the lesson's next
    step."""
    details = page.locator("[data-testid=decision] details")
    details.wait_for()
    if details.get_attribute("open") is None:
        page.click("[data-testid=decision] details summary")
    # the list is drawn when it opens (over the board): wait for the move to be listed
    deadline = time.monotonic() + 5
    while (index := page.evaluate(MOVE_INDEX_JS, state["move"])) < 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert index >= 0, state["move"]
    page.locator("[data-testid=decision] .move-list button").nth(index).click()
    deadline = time.monotonic() + 15
    while page.evaluate(STATE_JS)["step"] == state["step"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def follow(page: Any, base_url: str, lesson: str, query: str) -> None:
    """Open the lesson and make each move its guide names, until the lesson says it is done."""
    page.goto(f"{base_url}/{query}#/learn/{lesson}")
    page.wait_for_selector(f"[data-testid=tutorial][data-lesson={lesson}]")
    for _ in range(10):
        state = lesson_state(page)
        if state["state"] == "done":
            return
        assert state["state"] == "playing", state
        assert page.locator("[data-testid=tutorial-text]").inner_text()
        make_guide_move(page, state)
    raise AssertionError(f"lesson {lesson} not done after 10 moves")


@pytest.mark.parametrize(("lang", "done_word"), [("en", "done"), ("fr", "faite")])
def test_every_lesson_completed_by_following_its_instructions(browser: Any, contexts: list[Any], base_url: str,
                                                             artifacts: Path, lang: str, done_word: str) -> None:
    page = open_page(browser, contexts)
    query = f"?anim=0&lang={lang}"
    page.goto(f"{base_url}/{query}")
    page.wait_for_selector("[data-testid=how-to-play]")
    page.click("[data-testid=how-to-play]")
    page.wait_for_selector("[data-testid=lessons]")
    assert page.locator("[data-testid=lesson-done]").count() == 0
    for lesson in LESSONS:
        follow(page, base_url, lesson, query)
        if lesson == "voyage":
            page.screenshot(path=str(artifacts / f"30-tutorial-{lang}.png"))
    assert page.locator("[data-testid=tutorial-state]").get_attribute("data-state") == "done"
    # the end lesson finished the game: its scores are on the table
    assert page.locator("[data-testid=result]").is_visible()
    # progress is kept, across a reload
    page.goto(f"{base_url}/{query}#/learn")
    page.reload()
    page.wait_for_selector("[data-testid=lessons]")
    assert page.locator("[data-testid=lesson-done]").count() == len(LESSONS)
    assert done_word in page.locator("[data-testid=lesson-done]").first.inner_text()
    assert page.errors == []


def test_rules_page_in_five_languages_with_boards(browser: Any, contexts: list[Any], base_url: str,
                                                  artifacts: Path) -> None:
    page = open_page(browser, contexts)
    texts = {}
    for lang in ("en", "fr", "nl", "de", "he"):
        page.goto(f"{base_url}/?lang={lang}#/rules")
        page.wait_for_selector("[data-testid=rules] .rule-board svg .tile")
        texts[lang] = page.locator("[data-testid=rules]").inner_text()
        assert page.locator("[data-testid=rules] .rule-board:not(.ex-rule-board)").count() == 7
        # and Expeditions' section: its five lessons' maps
        assert page.locator("[data-testid=rules] .ex-rule-board svg .tile").count() >= 25
        assert page.locator("[data-testid=rules] .ex-rule-board").count() == 5
        assert page.locator("[data-testid=rules] .rule").count() == 12 + 6
        if lang in ("en", "he"):
            page.screenshot(path=str(artifacts / f"31-rules-{lang}.png"), full_page=True)
    assert len(set(texts.values())) == 5
    assert "Tonga" in texts["en"] and "royal" in texts["en"]
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.errors == []


def test_the_lobby_welcomes_and_plays_against_bots_in_one_click(browser: Any, contexts: list[Any], base_url: str,
                                                                 artifacts: Path) -> None:
    """The lobby says what the game is, links how to play and the rules, and "Play against bots now" seats
    the person at a started table with two bots (the default level) in one click."""
    page = open_page(browser, contexts)
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=intro]")
    assert len(page.locator("[data-testid=intro] p").all_inner_texts()) == 2
    assert page.locator("[data-testid=how-to-play]").get_attribute("href") == "#/learn"
    assert page.locator("[data-testid=rules-link]").get_attribute("href") == "#/rules"
    page.screenshot(path=str(artifacts / "32-welcome-lobby.png"))
    page.click("[data-testid=play-bots]")
    page.wait_for_selector("[data-testid=board]")
    bots = page.locator("[data-testid=players] .tag.bot")
    bots.first.wait_for()
    assert page.locator("[data-testid=players] .player").count() == 3
    assert bots.all_inner_texts() == ["bot · intermediate", "bot · intermediate"]
    assert "#/room/" in page.url
    # the level is the person's to pick beside the button (one click still plays), and it is remembered
    page.click("[data-testid=nav-lobby]")
    page.wait_for_selector("[data-testid=play-bots-level]")
    assert page.locator("[data-testid=play-bots-level]").input_value() == "greedy"
    page.select_option("[data-testid=play-bots-level]", "random")
    page.click("[data-testid=play-bots]")
    page.wait_for_selector("[data-testid=board]")
    bots = page.locator("[data-testid=players] .tag.bot")
    bots.first.wait_for()
    assert bots.all_inner_texts() == ["bot · beginner", "bot · beginner"]
    page.reload()
    page.wait_for_selector("[data-testid=board]")
    page.click("[data-testid=nav-lobby]")
    page.wait_for_selector("[data-testid=play-bots-level]")
    assert page.locator("[data-testid=play-bots-level]").input_value() == "random"
    assert page.errors == []


def test_a_pier_pointed_at_previews_its_route_before_it_is_chosen(browser: Any, contexts: list[Any], base_url: str,
                                                                   artifacts: Path) -> None:
    """R7 before the choice: in the chain lesson's migration, pointing at each of the beach's piers draws
    the route over the tiles already on the table and says in the decision bar what it meets (dangers
    against the fleet's colours) and how it ends; moving away clears it; nothing is sent."""
    page = open_page(browser, contexts)
    to_the_chain_migration(page, base_url)
    piers = page.locator("polygon[data-hit=pier]")
    assert piers.count() >= 1
    v = page.evaluate("() => window.__tongiaki.lesson.state.v")
    ends = set()
    for i in range(piers.count()):
        piers.nth(i).hover()
        page.wait_for_selector("[data-testid=route-note]")
        note = page.inner_text("[data-testid=route-note]")
        end = page.get_attribute("[data-testid=route-preview] [data-end]", "data-end")
        ends.add(end)
        words = {"unknown": "unknown water", "island": "lands on", "royal": "turned back", "sinks": "sinks"}[end]
        assert words in note, (end, note)
        if i == 0:
            page.screenshot(path=str(artifacts / "33-pier-route-preview.png"))
    assert ends, ends
    page.mouse.move(2, 2)
    page.wait_for_selector("[data-testid=route-note]", state="detached")
    assert page.locator("[data-testid=route-preview] *").count() == 0
    assert page.evaluate("() => window.__tongiaki.lesson.state.v") == v, "pointing sends nothing"
    assert page.errors == []


def test_on_a_touch_screen_a_first_tap_previews_the_pier_and_a_second_sails(browser: Any, contexts: list[Any],
                                                                              base_url: str) -> None:
    """A finger cannot point without choosing: the first tap on a pier shows its route and says to tap
    again; only the second tap on that pier sends the migration."""
    page = open_page(browser, contexts, viewport=PHONE, touch=True)
    to_the_chain_migration(page, base_url)
    v = page.evaluate("() => window.__tongiaki.lesson.state.v")
    pier = page.locator("polygon[data-hit=pier]").first
    pier.scroll_into_view_if_needed()
    pier.tap()
    page.wait_for_selector("[data-testid=route-note]")
    assert "tap the pier again" in page.inner_text("[data-testid=route-note]")
    assert page.locator("[data-testid=route-preview] [data-end]").count() == 1
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__tongiaki.lesson.state.v") == v, "the first tap sends nothing"
    page.locator("polygon[data-hit=pier]").first.tap()
    page.wait_for_function("(v) => window.__tongiaki.lesson.state.v > v", arg=v)
    assert page.errors == []


def to_the_chain_migration(page: Any, base_url: str) -> None:
    """The chain lesson, its guide's moves made up to the migration (its piers on the board), the list of
    moves closed (it would cover the board)."""
    page.goto(f"{base_url}/?anim=0#/learn/chain")
    page.wait_for_selector("[data-testid=tutorial][data-lesson=chain]")
    for _ in range(2):   # the guide's expansion and landing (server/tutorial/lessons.py); then its migration
        make_guide_move(page, lesson_state(page))
    page.wait_for_selector("polygon[data-hit=pier]")
    if page.locator("[data-testid=decision] details[open]").count():
        page.click("[data-testid=decision] details summary")
