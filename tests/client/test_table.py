"""The table a person wants to sit at (issue 11), in real Chromium against the real server: nothing
half-chosen is lost while thinking, the clock is visible, the turn is signalled, the board is reachable by
thumb and keyboard. Screenshots go to test-artifacts/client/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browserkit import open_page, step
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


def test_a_half_made_choice_survives_twenty_seconds_of_quiet(browser: Any, contexts: list[Any], base_url: str,
                                                              artifacts: Path) -> None:
    page = open_page(browser, contexts, viewport={"width": 1366, "height": 768})
    create_table(page, base_url, name="Maya", seats=2)
    page.click("[data-testid=start-bots]")
    page.wait_for_selector("[data-testid=board]")
    while _wait_kind(page) == "setup":
        step(page)
        page.wait_for_timeout(50)
    assert _wait_kind(page) == "turn"
    _half_choice(page)
    before = _prompt(page)
    selected = page.locator("[data-testid=board] .selected").count()
    assert before[0] != "prompt.turn", before
    page.evaluate(COUNT_SINCE_JS)
    v = page.get_attribute("[data-testid=board]", "data-v")
    page.screenshot(path=str(artifacts / "20-half-choice-1366.png"))
    time.sleep(21)
    # the background check asked for what was missed (nothing was), and the choice is still there
    assert page.evaluate("window.__since") >= 1
    assert page.get_attribute("[data-testid=board]", "data-v") == v
    assert _prompt(page) == before
    assert page.locator("[data-testid=board] .selected").count() == selected
    assert page.get_attribute("[data-testid=board]", "data-interactive") == "yes"
    assert page.locator("[data-testid=decision-notice]").count() == 0
    assert page.errors == []
