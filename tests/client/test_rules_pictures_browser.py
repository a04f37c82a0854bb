"""The rules page's pictures, in Chromium at the desktop's 1366×800 and a phone's 390×844 (touch): every
tile of every picture is drawn whole inside its frame (the ocean tile whose danger the text explains was
cut in half), and "The end and the scores" has a picture too."""

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
    page.screenshot(path=str(artifacts / f"58-rules-{size}.png"), full_page=True)
    assert page.errors == []
