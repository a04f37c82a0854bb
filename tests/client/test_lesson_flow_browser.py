"""A lesson as a newcomer meets it, in Chromium (desktop 1366×800 and a phone's 390×844 with touch): only
the target the guide names is offered on the board; a legal move that is not the lesson's gets "not
quite", is not played, and the learner tries again; the end of the lesson stops the table and makes "Next
lesson" the primary action; the lesson index says what each lesson teaches; on a phone the explanation is
one line that opens on a tap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import PHONE, open_page
from test_tutorial_browser import LESSONS, lesson_state, make_guide_move

DESKTOP = {"width": 1366, "height": 800}

WRONG_MOVE_JS = r"""
() => { const l = window.__tongiaki.lesson, s = l.lessonState, move = s.moves[s.step];
        const key = (a) => JSON.stringify({...a, beaches: [...(a.beaches || [])].sort()});
        const wrong = s.legal.find((a) => key(a) !== key(move));
        l.table.decision.send(wrong);
        return wrong; }
"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_lesson_offers_its_move_refuses_another_and_ends_clearly(browser: Any, contexts: list[Any],
                                                                   base_url: str, artifacts: Path,
                                                                   size: str) -> None:
    phone = size == "phone"
    page = open_page(browser, contexts, viewport=PHONE if phone else DESKTOP, touch=phone)
    page.goto(f"{base_url}/?anim=0&lang=en#/learn/expand")
    page.wait_for_selector("[data-testid=tutorial][data-lesson=expand]")
    state = lesson_state(page)
    # the expansion the guide names puts its boats on Tonga's beaches 2 and 5 (server/tutorial/lessons.py):
    # those two beaches alone are offered
    page.wait_for_selector("[data-testid=board] [data-hit=beach]")
    offered = page.eval_on_selector_all("[data-testid=board] [data-hit=beach]",
                                        "(ns) => ns.map((n) => `${n.dataset.island}|${n.dataset.beach}`).sort()")
    assert offered == ["Tonga|1", "Tonga|4"], offered
    text = page.locator("[data-testid=tutorial-text]")
    if phone:
        # one line until tapped: the board keeps the screen
        folded = text.bounding_box()["height"]
        assert folded < 30, folded
        assert page.locator("[data-testid=tutorial]").bounding_box()["height"] < 0.3 * PHONE["height"]
        page.screenshot(path=str(artifacts / "55-lesson-folded-phone.png"))
        text.tap()
        assert text.bounding_box()["height"] > 2 * folded
        text.tap()
        assert text.bounding_box()["height"] == folded
    # another legal move, sent as a click would send it: "not quite", nothing played, try again
    v = page.evaluate("() => window.__tongiaki.lesson.state.v")
    wrong = page.evaluate(WRONG_MOVE_JS)
    assert wrong and wrong["type"] == "expand", wrong
    page.wait_for_selector("[data-testid=tutorial-not-quite]")
    assert page.evaluate("() => window.__tongiaki.lesson.state.v") == v
    assert page.locator("[data-testid=tutorial-state]").get_attribute("data-state") == "playing"
    page.screenshot(path=str(artifacts / f"56-lesson-not-quite-{size}.png"))
    make_guide_move(page, state)
    done = lesson_state(page)
    assert done["state"] == "done"
    assert "Well done!" in page.inner_text("[data-testid=tutorial-state]")
    # the table is stopped and "Next lesson" is the primary action
    assert page.get_attribute("[data-testid=board]", "data-interactive") == "no"
    assert page.locator("[data-testid=board] [data-hit]").count() == 0
    assert "primary" in (page.get_attribute("[data-testid=tutorial-next]", "class") or "")
    assert not page.locator("[data-testid=decision]").is_visible(), "no bar waiting for the tutor"
    assert page.locator("[data-testid=tutorial-not-quite]").count() == 0
    page.screenshot(path=str(artifacts / f"57-lesson-done-{size}.png"))
    assert page.errors == []


def test_the_lesson_index_says_what_each_lesson_teaches(browser: Any, contexts: list[Any], base_url: str) -> None:
    page = open_page(browser, contexts)
    page.goto(f"{base_url}/?lang=en#/learn")
    page.wait_for_selector("[data-testid=lessons]")
    teaches = page.locator("[data-testid=lessons] [data-testid=lesson-teaches]").all_inner_texts()
    assert len(teaches) == len(LESSONS) and all(len(x) > 20 for x in teaches), teaches
    assert len(set(teaches)) == len(LESSONS)
    # a whole sentence each (not a first clause cut at its colon or semicolon)
    assert all(x.endswith(".") for x in teaches), teaches
    assert teaches[0] == "How the game starts: two boats each on Tonga.", teaches
    assert page.errors == []
