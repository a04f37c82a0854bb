"""The rules page's pictures, in Chromium at the desktop's 1366×800 and a phone's 390×844 (touch): every
tile of every picture is drawn whole inside its frame (the ocean tile whose danger the text explains was
cut in half); the red mark the migration's text speaks of is drawn (R2, R7: on side 0 of every tile but Tonga,
touching the tile the fleet came from); "New colonisation" shows one done (R11: the tiles drawn and placed,
a boat on the island that came), not a bare Tonga; "The end and the scores" has a picture too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import PHONE, open_page

DESKTOP = {"width": 1366, "height": 800}

CUT_JS = r"""
() => [...document.querySelectorAll('[data-testid=rules] .rule-board')].flatMap((fig) => {
  const f = fig.getBoundingClientRect();
  return [...fig.querySelectorAll('.tile')].filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < f.left - 1 || r.right > f.right + 1 || r.top < f.top - 1 || r.bottom > f.bottom + 1;
  }).map((t) => `${fig.dataset.lesson}:${t.dataset.tile}`);
})
"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_rules_pictures_show_their_tiles_whole(browser: Any, contexts: list[Any], base_url: str,
                                                  artifacts: Path, size: str) -> None:
    phone = size == "phone"
    page = open_page(browser, contexts, viewport=PHONE if phone else DESKTOP, touch=phone)
    page.goto(f"{base_url}/?lang=en#/rules")
    page.wait_for_selector("[data-testid=rules] .rule-board svg .tile")
    page.wait_for_timeout(300)   # a resize of the page has settled
    assert page.evaluate(CUT_JS) == []
    # the migration's picture shows the ocean tile with the danger its text explains
    assert page.locator("[data-rule='rules.migration'] .rule-board .ocean-tile [data-danger]").count() >= 1
    assert page.locator("[data-rule='rules.end'] .rule-board svg .tile").count() >= 3
    # the voyage lesson's rough tile lies south of Tonga turned by 3: its red mark on its north side (3),
    # the side touching Tonga; Tonga has none
    mark = page.locator("[data-rule='rules.migration'] .rule-board .ocean-tile .red-mark")
    assert mark.count() == 1 and mark.get_attribute("data-side") == "3"
    assert page.locator("[data-rule='rules.migration'] .rule-board .tile[data-tile=Tonga] .red-mark").count() == 0
    box = mark.bounding_box()
    tonga = page.locator("[data-rule='rules.migration'] .rule-board .tile[data-tile=Tonga] .hex").bounding_box()
    assert box and tonga and abs(box["y"] - (tonga["y"] + tonga["height"])) < 6, (box, tonga)
    # a new colonisation done: the ocean tile and Samoa drawn and placed east of Tonga, a red boat on Samoa
    colonise = page.locator("[data-rule='rules.colonise'] .rule-board")
    assert colonise.locator(".tile").count() == 3
    assert colonise.locator(".tile[data-tile=Samoa] .boat[data-colour=red]").count() == 1
    page.screenshot(path=str(artifacts / f"58-rules-{size}.png"), full_page=True)
    assert page.errors == []
