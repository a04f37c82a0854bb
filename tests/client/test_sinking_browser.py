"""A sinking fleet is seen to sink, in Chromium at the desktop's 1366×800 and a phone's 390×844 (touch):
with animations on, the sinking lesson's fleet goes down where it meets the danger (it lists, settles and
fades while foam rings spread), rather than vanishing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import PHONE, open_page
from test_tutorial_browser import lesson_state

DESKTOP = {"width": 1366, "height": 800}

FRAME_JS = r"""
() => { const f = document.querySelector('[data-testid=anim-fleet].sinking');
        const rings = document.querySelector('[data-testid=sink-rings]');
        if (!f || !rings) return null;
        const r = f.getBoundingClientRect();
        return {opacity: Number(f.getAttribute('opacity') ?? 1), w: r.width, transform: f.getAttribute('transform'),
                rings: rings.querySelectorAll('circle').length}; }
"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_sinking_fleet_is_seen_to_sink(browser: Any, contexts: list[Any], base_url: str, artifacts: Path,
                                         size: str) -> None:
    phone = size == "phone"
    page = open_page(browser, contexts, viewport=PHONE if phone else DESKTOP, touch=phone)
    page.goto(f"{base_url}/?anim=0.5&lang=en#/learn/sinking")   # "slow": frames to look at on a busy machine
    page.wait_for_selector("[data-testid=tutorial][data-lesson=sinking]")
    state = lesson_state(page)
    details = page.locator("[data-testid=decision] details")
    if details.get_attribute("open") is None:
        page.click("[data-testid=decision] details summary")
    page.locator("[data-testid=decision] .move-list button", has_text=state["move"]).first.click()
    frames, shot = [], False
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(frames) < 40:
        f = page.evaluate(FRAME_JS)
        if f:
            frames.append(f)
            if f["opacity"] < 0.7 and not shot:
                shot = True
                page.screenshot(path=str(artifacts / f"54-fleet-sinking-{size}.png"))
        elif frames:
            break
        time.sleep(0.03)
    # the fleet stays on screen while it goes down: several frames, fading, shrinking, rings around it
    assert len(frames) >= 3, frames
    assert frames[0]["rings"] == 3
    assert any(0.1 < f["opacity"] < 0.9 for f in frames), frames
    assert min(f["w"] for f in frames) < frames[0]["w"], frames
    assert lesson_state(page)["state"] == "done"
    assert page.errors == []
