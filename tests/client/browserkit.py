"""Helpers for the browser tests: open a person's page, click through decisions, read the board."""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path
from typing import Any

Page = Any
ROOT = Path(__file__).resolve().parents[2]


def node_binary() -> str | None:
    """The Node the client is built and tested with: the .nvmrc line scripts/bootstrap.sh put in .node/ when the
    machine's own node is another line, else the one on PATH."""
    local = ROOT / ".node" / "bin" / "node"
    return str(local) if local.exists() else shutil.which("node")

CHOICE = random.Random(4)  # clicks vary like a person's (always the first option makes long games)
KINDS: dict[str, int] = {}  # decision kinds met by step(), for the tests to check what was exercised

STATE_JS = r"""
() => {
  const board = document.querySelector('[data-testid=board]');
  if (!board) return 'noboard';
  const res = document.querySelector('[data-testid=result]');
  if (res && !res.hidden) return 'over';
  if (board.dataset.interactive !== 'yes') return 'wait';
  return 'act';
}
"""

# What every client shows, read from the SVG: tiles on cells, boats on each beach, royal boats.
SIGNATURE_JS = r"""
() => {
  const out = [];
  for (const g of document.querySelectorAll('[data-testid=board] .board > .tile')) {
    const beaches = [...g.querySelectorAll('[data-beach-of]')].map(
      (b) => [...b.querySelectorAll('.boat')].map((x) => x.dataset.colour).join(','));
    const royal = g.querySelector('.royal-boat')?.dataset.colour || '';
    out.push(`${g.dataset.tile}@${g.dataset.cell}[${beaches.join('|')}]${royal}`);
  }
  return out.sort().join(' ');
}
"""

SETTLED_JS = r"""
() => {
  const app = window.__tongiaki;
  const t = app && app.room && app.room.table;
  if (!t || !app.room.stream.view) return null;
  return (t.queue.busy || t.animating) ? null : app.room.stream.v;
}
"""


PHONE = {"width": 390, "height": 844}


def open_page(browser: Any, contexts: list[Any], *, locale: str = "en-US",
              viewport: dict[str, int] | None = None, touch: bool = False) -> Page:
    """A page of its own (a person), recording its errors; `touch`: a phone's touch screen."""
    ctx = browser.new_context(locale=locale, viewport=viewport or {"width": 1280, "height": 860},
                              has_touch=touch, is_mobile=touch)
    contexts.append(ctx)
    page = ctx.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(15000)
    return page


def bots_only_room(page: Page, base_url: str, query: str = "", seats: int = 2, pace: float = 0.05) -> str:
    """A started room of bots only that this page watches from its first move (its person stands up);
    `query`: the page's URL parameters (e.g. "?anim=4")."""
    page.goto(f"{base_url}/{query}")
    page.wait_for_selector("[data-testid=create-form]")
    room = page.evaluate("""async ([seats, pace]) => {
      const net = window.__tongiaki.net;
      const made = await net.request('room_create', { name: 'bots only', seats, bot_pace: pace });
      await net.request('stand', { room: made.room.id, seat: 0 });
      return made.room.id; }""", [seats, pace])
    page.goto(f"{base_url}/{query}#/room/{room}")
    page.wait_for_selector("[data-testid=start-bots]")
    page.evaluate("(id) => window.__tongiaki.net.request('room_start', { room: id, fill_with_bots: true })", room)
    return str(room)


def step(page: Page) -> str:
    """Make one click toward the pending decision of this page's player, the way a person would:
    highlighted things on the board first, buttons of the decision bar when the board needs them."""
    state = page.evaluate(STATE_JS)
    if state != "act":
        return state
    dec = page.locator("[data-testid=decision]")
    kind = dec.get_attribute("data-kind") or ""
    KINDS[kind] = KINDS.get(kind, 0) + 1
    board = page.locator("[data-testid=board]")

    def first(sel: str) -> Any:
        loc = board.locator(sel)
        n = loc.count()
        if not n:
            return None
        target = loc.nth(CHOICE.randrange(n))
        # a board larger than the screen: pan to the target first, as a person would
        target.evaluate("e => window.__tongiaki.room.table.board.reveal(e)")
        return target

    try:
        # the last step of an expansion, a royal island or a new colonisation: confirm it
        confirm = dec.locator("button[data-action=confirm]:not([disabled])")
        if kind != "land" and confirm.count():
            confirm.click()
            return "confirm"
        if kind == "land":
            colours = dec.locator('button[data-action^="colour:"]:not([disabled])')
            if colours.count() and not dec.locator('button[data-action^="colour:"][aria-pressed=true]').count():
                colours.nth(CHOICE.randrange(colours.count())).click()
                return "land-colour"
            target = first("[data-hit=beach] .mooring")
            if target:
                target.click()
                return "land-beach"
            confirm = dec.locator("button[data-action=confirm]:not([disabled])")
            if confirm.count():
                confirm.click()
                return "land-confirm"
        if kind in ("place_tile", "turn_tile"):
            place = dec.locator("button[data-action=place]:not([disabled])")
            if place.count():
                if kind == "place_tile" or not dec.locator("button[data-action='rotate:1']:disabled").count():
                    # turn the tile once before placing, as a player would look at it
                    rot = dec.locator("button[data-action='rotate:1']:not([disabled])")
                    if rot.count() and not page.evaluate("window.__turned === true"):
                        rot.click()
                        page.evaluate("window.__turned = true")
                        return "rotate"
                page.evaluate("window.__turned = false")
                place.click()
                return "place"
            target = first("[data-hit=cell]")
            if target:
                target.click()
                return "cell"
        target = first(".pier-target")
        if target:
            target.click()
            return "pier"
        target = first("[data-hit=beach]:not(.selected) .mooring") or first("[data-hit=beach]:not(.selected) .boat")
        if target:
            target.click()
            return "beach"
        target = first("[data-hit=island]")
        if target:
            target.click()
            return "island"
        dec.locator("details.all-moves summary").click()
        dec.locator(".move-list button").first.click()
        return "list"
    except Exception as e:  # the view moved on under the click (e.g. a bot acted): look again
        if "Timeout" in type(e).__name__ or "detached" in str(e) or "not attached" in str(e):
            return "retry"
        raise


def play(pages: list[Page], *, until: Any, limit: float = 150.0, on_step: Any = None) -> dict[str, int]:
    """Click for every page's player in turn until `until()` is true; returns counts of what was clicked.
    Fails when no page's game has moved on (its version) for `limit` seconds: a loaded machine plays a
    whole game slower, so a bound on the whole would fail games that are only slow."""
    counts: dict[str, int] = {}
    deadline, versions = time.monotonic() + limit, None
    while not until():
        now = [page.evaluate("window.__tongiaki?.room?.stream?.v ?? null") for page in pages]
        if now != versions:
            deadline, versions = time.monotonic() + limit, now
        if time.monotonic() > deadline:
            raise AssertionError(f"game did not progress in {limit}s (versions {versions}): {counts}")
        progressed = False
        for page in pages:
            r = step(page)
            counts[r] = counts.get(r, 0) + 1
            if r not in ("wait", "noboard", "over", "retry"):
                progressed = True
                if on_step:
                    on_step(sum(counts.values()))
        if not progressed:
            time.sleep(0.03)
    return counts


def settled_version(page: Page) -> Any:
    return page.evaluate(SETTLED_JS)


def wait_same_board(pages: list[Page], timeout: float = 20.0) -> str:
    """Wait until every page holds the same version with no animation running; return the board signature."""
    deadline = time.monotonic() + timeout
    last: list[Any] = []
    while time.monotonic() < deadline:
        versions = [settled_version(p) for p in pages]
        if versions[0] is not None and all(v == versions[0] for v in versions):
            sigs = [p.evaluate(SIGNATURE_JS) for p in pages]
            if all(s == sigs[0] for s in sigs):
                return str(sigs[0])
            last = sigs
        else:
            last = versions
        time.sleep(0.05)
    raise AssertionError(f"boards differ: {last}")


def is_over(page: Page) -> bool:
    return bool(page.evaluate(STATE_JS) == "over")
