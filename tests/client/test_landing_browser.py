"""A landing in Chromium, desktop 1366×800 and phone 390×844 (touch): the prompt says what R8 says (a boat
goes back only when no mooring is left for it); each boat placed is drawn at the mooring it will take (no
count badge over the island's value); the last boat does not send at once: the landing asks, Undo takes
that boat back, Confirm lands; the colour buttons keep their places while boats are placed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import PHONE, open_page
from test_tutorial_browser import lesson_state, make_guide_move

DESKTOP = {"width": 1366, "height": 800}


def to_the_landing(page: Any, base_url: str, lesson: str) -> None:
    page.goto(f"{base_url}/?anim=0&lang=en#/learn/{lesson}")
    page.wait_for_selector(f"[data-testid=tutorial][data-lesson={lesson}]")
    make_guide_move(page, lesson_state(page))   # the expansion: its fleet reaches Tubuai
    page.wait_for_selector("[data-testid=decision][data-kind=land] [data-testid=prompt]")
    if page.locator("[data-testid=decision] details[open]").count():
        page.click("[data-testid=decision] details summary")


def place(page: Any, beach: int, phone: bool) -> None:
    beach_of = f"[data-testid=board] [data-hit=beach][data-island=Tubuai][data-beach='{beach}']"
    target = page.locator(f"{beach_of} .mooring").first
    if phone:
        target.tap()
    else:
        target.click()


def lesson_v(page: Any) -> int:
    return int(page.evaluate("() => window.__tongiaki.lesson.state.v"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_landing_draws_its_boats_and_asks_before_it_lands(browser: Any, contexts: list[Any], base_url: str,
                                                           artifacts: Path, size: str) -> None:
    phone = size == "phone"
    page = open_page(browser, contexts, viewport=PHONE if phone else DESKTOP, touch=phone)
    to_the_landing(page, base_url, "landing")   # three red boats, Tubuai's two empty beaches
    prompt = page.inner_text("[data-testid=decision] [data-testid=prompt]")
    assert "goes back only when no mooring is left" in prompt and "Boats not placed go back" not in prompt, prompt
    v = lesson_v(page)
    place(page, 0, phone)
    planned = page.locator("[data-testid=board] .tile[data-tile=Tubuai] .planned-boat[data-colour=red]")
    assert planned.count() == 1
    # nothing drawn over the island's value
    value = page.locator("[data-testid=board] .tile[data-tile=Tubuai] .island-value").bounding_box()
    for i in range(page.locator("[data-testid=board] .tile[data-tile=Tubuai] :is(.pick, .planned-boat)").count()):
        b = page.locator("[data-testid=board] .tile[data-tile=Tubuai] :is(.pick, .planned-boat)").nth(i).bounding_box()
        apart = (b["x"] >= value["x"] + value["width"] or b["x"] + b["width"] <= value["x"]
                 or b["y"] >= value["y"] + value["height"] or b["y"] + b["height"] <= value["y"])
        assert apart, (b, value)
    place(page, 1, phone)
    place(page, 0, phone)   # the last boat: the landing asks
    page.wait_for_selector("[data-testid=decision] button[data-action=undo]")
    assert planned.count() == 3
    assert lesson_v(page) == v, "the last boat sent the landing at once"
    assert page.get_attribute("[data-testid=decision] [data-testid=prompt]", "data-prompt") == "prompt.confirm_land"
    page.screenshot(path=str(artifacts / f"53-landing-asks-{size}.png"))
    page.click("[data-testid=decision] button[data-action=undo]")
    assert planned.count() == 2
    assert page.locator("[data-testid=decision] button[data-action=undo]").count() == 0
    place(page, 0, phone)   # (a lesson offers only its own landing: two on the first beach, one on the second)
    page.click("[data-testid=decision] button[data-action=confirm]")
    page.wait_for_function("(v) => window.__tongiaki.lesson.state.v > v", arg=v)
    assert lesson_state(page)["state"] == "done"
    assert page.errors == []


def test_the_colour_buttons_keep_their_places(browser: Any, contexts: list[Any], base_url: str) -> None:
    """The chain lesson's fleet has red and blue boats: placing the only blue one leaves both buttons where
    they were (blue's now spent and disabled), so the next click does not land on another colour."""
    page = open_page(browser, contexts, viewport=DESKTOP)
    to_the_landing(page, base_url, "chain")
    buttons = page.locator("[data-testid=decision] button[data-action^='colour:']")
    before = {buttons.nth(i).get_attribute("data-action"): buttons.nth(i).bounding_box()["x"]
              for i in range(buttons.count())}
    assert set(before) == {"colour:red", "colour:blue"}, before
    page.click("[data-testid=decision] button[data-action='colour:blue']")
    place(page, 1, False)
    after = {buttons.nth(i).get_attribute("data-action"): buttons.nth(i).bounding_box()["x"]
             for i in range(buttons.count())}
    assert after == before
    assert page.locator("[data-testid=decision] button[data-action='colour:blue']").is_disabled()
    assert page.errors == []
