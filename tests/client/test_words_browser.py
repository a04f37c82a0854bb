"""The table in words, in Chromium: a tile is named as players know it (an ocean tile by its dangers, an
island by its name and value), never by its letter in the box; the tile in hand is drawn in the decision
bar and the stack panel; every board target's accessible name is in words (no "-2,0"), in five languages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browserkit import PHONE, open_page
from test_tutorial_browser import lesson_state, make_guide_move

DESKTOP = {"width": 1366, "height": 800}

# the colonise lesson's first tile drawn is "o": an ocean tile with a single danger of 2
# (server/game/catalogue.py, server/tutorial/lessons.py)
PROMPTS = {
    "en": "Place the drawn ocean tile, danger 2:",
    "fr": "Placez la tuile tirée (tuile océan, danger 2)",
    "nl": "Leg de getrokken oceaantegel, gevaar 2:",
    "de": "Lege das gezogene Ozeanplättchen, Gefahr 2:",
    "he": "אריח אוקיינוס, סכנה 2",
}
SPACES = {"en": "Empty space ", "fr": "Emplacement libre ", "nl": "Lege plek ", "de": "Freies Feld ",
          "he": "משבצת ריקה "}

NAMES_JS = ("() => [...document.querySelectorAll('[data-testid=board] [data-hit]')]"
            ".map((n) => n.getAttribute('aria-label'))")


def to_the_first_tile(page: Any, base_url: str, lang: str) -> None:
    page.goto(f"{base_url}/?anim=0&lang={lang}#/learn/colonise")
    page.wait_for_selector("[data-testid=tutorial][data-lesson=colonise]")
    make_guide_move(page, lesson_state(page))   # the new colonisation: the first tile is drawn
    page.wait_for_selector("[data-testid=decision][data-kind=place_tile] [data-testid=decision-tile]")
    if page.locator("[data-testid=decision] details[open]").count():
        page.click("[data-testid=decision] details summary")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_drawn_tile_is_named_and_drawn(browser: Any, contexts: list[Any], base_url: str, artifacts: Path,
                                           size: str) -> None:
    phone = size == "phone"
    page = open_page(browser, contexts, viewport=PHONE if phone else DESKTOP, touch=phone)
    to_the_first_tile(page, base_url, "en")
    prompt = page.inner_text("[data-testid=decision] [data-testid=prompt]")
    assert PROMPTS["en"] in prompt, prompt
    assert "tile o" not in prompt
    # the guide names the place by its neighbour too, not by coordinates
    guide = page.inner_text("[data-testid=tutorial-move-text]")
    assert re.fullmatch(r"Tile (south|north)(-(east|west))? of Tonga, turned \w+", guide), guide
    # the tile in hand, drawn in the decision bar, inside the bar and inside the screen
    pic = page.locator("[data-testid=decision] [data-testid=decision-tile]")
    assert pic.get_attribute("aria-label") == "ocean tile, danger 2"
    assert pic.locator("[data-danger='2']").count() == 1
    box, bar = pic.bounding_box(), page.locator("[data-testid=decision]").bounding_box()
    vw = PHONE["width"] if phone else DESKTOP["width"]
    assert box and bar and box["width"] >= 30 and box["height"] >= 30, box
    assert bar["x"] <= box["x"] and box["x"] + box["width"] <= min(bar["x"] + bar["width"], vw) + 1, (box, bar)
    assert bar["y"] <= box["y"] and box["y"] + box["height"] <= bar["y"] + bar["height"] + 1, (box, bar)
    # the stack panel says it in words and draws it too
    hand = page.locator("[data-testid=in-hand]")
    assert hand.locator("span").text_content() == "In hand: ocean tile, danger 2"
    assert hand.locator("[data-testid=in-hand-tile] [data-danger='2']").count() == 1
    # the draw's notice and log line tell the ocean tile by its dangers too (the event names only its id)
    log = page.locator("[data-testid=log]").text_content()
    assert "Drawn: an ocean tile (dangers 2)." in log, log
    # the empty spaces to choose are named by the tile beside them
    names = page.evaluate(NAMES_JS)
    assert names and all(re.fullmatch(r"Empty space (south|north)(-(east|west))? of Tonga", n) for n in names), names
    page.screenshot(path=str(artifacts / f"50-tile-in-hand-{size}.png"))
    assert page.errors == []


def test_every_target_is_named_in_words_in_five_languages(browser: Any, contexts: list[Any], base_url: str) -> None:
    page = open_page(browser, contexts)
    for lang in ("en", "fr", "nl", "de", "he"):
        to_the_first_tile(page, base_url, lang)
        assert PROMPTS[lang] in page.inner_text("[data-testid=decision] [data-testid=prompt]")
        names = page.evaluate(NAMES_JS)
        assert names and all(n.startswith(SPACES[lang]) and "Tonga" in n for n in names), (lang, names)
        assert not any(re.search(r"-?\d+,-?\d+", n) for n in names), names
    # a migration's piers: "Pier north-west", not "Pier NW"
    page.goto(f"{base_url}/?anim=0&lang=en#/learn/chain")
    page.wait_for_selector("[data-testid=tutorial][data-lesson=chain]")
    for _ in range(2):
        make_guide_move(page, lesson_state(page))
    page.wait_for_selector("polygon[data-hit=pier]")
    piers = [n for n in page.evaluate(NAMES_JS) if n.startswith("Pier")]
    assert piers and all(re.match(r"Pier (south|north)(-(east|west))? — Tubuai, beach \d", n) for n in piers), piers
    assert page.errors == []
