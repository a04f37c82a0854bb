"""The journey matrix in real Chromium: {desktop 1366×800, phone 390×844 with touch} × {Tongiaki,
Expeditions} × {direct, behind deploy/nginx.conf}: from the lobby's create form through a whole game
against bots (a reload in the middle of a decision, a spectator arriving in the middle), the end screen,
the replay watched to its end, and a rematch; and a lesson finished at both sizes.

At every screen the journey's main actions must be visible inside the viewport, not covered (the element
at the centre of each is the action or inside it) and not clipped by a scrolling ancestor; no page error
and no console error; and a screenshot goes to test-artifacts/client/journey-*.png for a person to look
at. Bots play at once (pace 0), Expeditions with its shortest deadline, Tongiaki with two seats; the
person clicks the first decisions and the last ones on the board, and the middle of a Tongiaki game goes
through the page's own connection (the request a click sends: `app.act`), so the matrix fits CI."""

from __future__ import annotations

import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import PHONE, is_over, open_page, play
from test_expeditions_browser import expand_or_pass
from test_tutorial_browser import lesson_state, make_guide_move

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "deploy"))
from deploykit import NginxProcess  # noqa: E402

DESKTOP = {"width": 1366, "height": 800}
SIZES = {"desktop": (DESKTOP, False), "phone": (PHONE, True)}
QUERY = "?anim=0"

# Every problem that keeps a person from using an action: missing, off the viewport, covered, clipped.
ON_SCREEN_JS = r"""
(sel) => {
  const out = [];
  const els = [...document.querySelectorAll(sel)];
  if (!els.length) return [`${sel}: missing`];
  const e = els.find((x) => x.getClientRects().length) || els[0];
  const r = e.getBoundingClientRect();
  if (r.width < 2 || r.height < 2) return [`${sel}: not shown (${r.width}x${r.height})`];
  const W = innerWidth, H = innerHeight;
  if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
    out.push(`${sel}: outside the viewport (${[r.left, r.top, r.width, r.height].map(Math.round)} in ${W}x${H})`);
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const q = a.getBoundingClientRect();
    if (r.left < q.left - 0.5 || r.top < q.top - 0.5 || r.right > q.right + 0.5 || r.bottom > q.bottom + 0.5)
      out.push(`${sel}: clipped by ${a.tagName.toLowerCase()}.${[...a.classList].join('.')}`);
  }
  if (e.scrollHeight > e.clientHeight + 2 && getComputedStyle(e).overflowY !== 'visible')
    out.push(`${sel}: clips its content (${e.scrollHeight} px in ${e.clientHeight})`);
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), W - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), H - 1);
  const hit = document.elementFromPoint(cx, cy);
  const name = (x) => `${x.tagName.toLowerCase()}.${[...x.classList].join('.')}[${x.dataset.testid || ''}]`;
  if (!hit || !(hit === e || e.contains(hit))) out.push(`${sel}: covered by ${hit ? name(hit) : 'nothing'}`);
  return out;
}
"""


# The end of a game's entrance (its scores, then its buttons) has played.
SETTLED_JS = r"""
() => document.getAnimations().filter((a) => a.effect?.target?.closest?.('.end-moment'))
  .every((a) => a.playState === 'finished')
"""


class Journey:
    """One person's page on one journey: checks each screen and keeps its screenshots."""

    def __init__(self, page: Any, tag: str, artifacts: Path) -> None:
        self.page, self.tag, self.artifacts = page, tag, artifacts
        self.console: list[str] = []
        page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)

    def screen(self, name: str, actions: list[str]) -> None:
        """The screen `name`: each action usable (visible, inside, uncovered, unclipped), no errors so far,
        and its screenshot."""
        page = self.page
        page.wait_for_timeout(120)   # a settled layout (fonts, the camera's first frame)
        page.wait_for_function(SETTLED_JS)
        # a page that scrolls (the lobby, the waiting room, Expeditions on a phone): scrolled to each action
        # as a person would, and its screenshot the whole page; the table of Tongiaki fills the screen
        scrolls = page.evaluate("() => document.documentElement.scrollHeight > innerHeight + 1")
        page.screenshot(path=str(self.artifacts / f"journey-{self.tag}-{name}.png"), full_page=scrolls)
        problems = []
        for sel in actions:
            if scrolls and page.locator(sel).count():
                page.locator(sel).first.scroll_into_view_if_needed()
            problems += page.evaluate(ON_SCREEN_JS, sel)
        assert not problems, f"{self.tag} {name}: {problems}"
        self.no_errors(name)

    def no_errors(self, name: str) -> None:
        assert not self.page.errors, f"{self.tag} {name}: page errors {self.page.errors}"
        assert not self.console, f"{self.tag} {name}: console errors {self.console}"


@pytest.fixture(scope="module")
def targets(base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The service as README starts it (the session's server), and the same behind nginx running
    deploy/nginx.conf on loopback (as tests/deploy/ runs it)."""
    port = int(base_url.rsplit(":", 1)[1])
    nginx = NginxProcess(tmp_path_factory.mktemp("journeys-nginx"), [port], ROOT / "client" / "dist")
    checked = nginx.check()
    assert checked.returncode == 0, checked.stderr
    nginx.start()
    deadline = time.monotonic() + 15
    while True:
        try:
            with urllib.request.urlopen(nginx.url + "/healthz", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        assert nginx.proc and nginx.proc.poll() is None and time.monotonic() < deadline, nginx.errors()
        time.sleep(0.1)
    try:
        yield {"direct": base_url, "proxy": nginx.url}
    finally:
        nginx.stop()


def lobby_create(j: Journey, url: str, game: str) -> str:
    """From the lobby's create form: the chosen game's fields only, a table with the fastest bots; the
    waiting room says which game it is."""
    page = j.page
    page.goto(url + "/" + QUERY)
    page.wait_for_selector("[data-testid=create-form]")
    j.screen("1-lobby", ["[data-testid=play-bots]", "[data-testid=how-to-play]"])
    page.select_option("[data-testid=create-game]", game)
    # only the fields of the game chosen are shown
    shown = page.evaluate("""() => [...document.querySelectorAll('[data-testid=create-form] label')]
      .filter((l) => l.getClientRects().length).map((l) => l.querySelector('[data-testid]')?.dataset.testid)""")
    if game == "expeditions":
        assert "create-deadline" in shown and "clock" not in shown and "first" not in shown, shown
        page.select_option("[data-testid=create-deadline]", "30")
        page.select_option("[data-testid=seats]", "3")
    else:
        assert "clock" in shown and "first" in shown and "create-deadline" not in shown, shown
        page.select_option("[data-testid=seats]", "2")
    page.fill("[data-testid=bot-pace]", "0")
    page.locator("[data-testid=create]").scroll_into_view_if_needed()
    j.screen("2-create-form", ["[data-testid=create]"])
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=start-bots]")
    settings = page.inner_text(".waiting .settings")
    if game == "expeditions":
        assert "Expeditions" in settings and "Turn deadline" in settings and "Starting player" not in settings, settings
    else:
        assert "Tongiaki" in settings and "Starting player" in settings and "Turn deadline" not in settings, settings
    j.screen("3-waiting-room", ["[data-testid=start-bots]", "[data-testid=leave]"])
    # the quickest bots: each added and set to the first level (a whole game fits CI)
    seats = 3 if game == "expeditions" else 2
    for seat in range(1, seats):
        page.click(f"[data-testid=bot-add-{seat}]")
        page.wait_for_selector(f"[data-testid=bot-level-{seat}]")
        page.select_option(f"[data-testid=bot-level-{seat}]", "random")
        page.wait_for_function("(s) => window.__tongiaki.room.state.seats[s].level === 'random'", arg=seat)
    page.wait_for_selector("[data-testid=start]:not([disabled]).primary")
    j.screen("3b-waiting-room-full", ["[data-testid=start]"])
    return str(page.evaluate("() => window.__tongiaki.room.id"))


# The person's decisions made by the page itself (a legal action at random, as a click would send it)
# until the stack is nearly empty or the game is over.
FAST_FORWARD_JS = r"""
async ([left, limitMs]) => {
  const app = window.__tongiaki, end = performance.now() + limitMs, acts = [];
  while (performance.now() < end) {
    const r = app.room, view = r && r.stream.view;
    if (view && (view.phase === 'over' || (view.stack.islands + view.stack.oceans) <= left)) return view.phase;
    const legal = r && r.tableState.legal;
    if (Array.isArray(legal) && legal.length && !r.tableState.sending) {
      const res = await app.act(legal[Math.floor(Math.random() * legal.length)]);
      acts.push(res && res.ok ? res.v : JSON.stringify(res).slice(0, 80));
      if (res && res.ok) while (app.room === r && r.stream.v < res.v) await new Promise((ok) => setTimeout(ok, 5));
    } else await new Promise((ok) => setTimeout(ok, 10));
  }
  const r = app.room, view = r && r.stream.view;
  return JSON.stringify({ v: r && r.stream.v, stack: view && view.stack, phase: view && view.phase,
                          legal: r && r.tableState.legal, acts });
}
"""


def click_decisions(j: Journey, n: int, *, until_over: bool = False) -> None:
    """The person clicks `n` steps of their decisions on the board (or until the game is over), the
    decision bar usable at each one: on screen, uncovered, its content not clipped, "tap" on a phone."""
    page = j.page
    problems: list[str] = []

    def check(_count: int) -> None:
        if page.evaluate("() => document.querySelector('[data-testid=board]')?.dataset.interactive") != "yes":
            return
        problems.extend(page.evaluate(ON_SCREEN_JS, "[data-testid=decision]"))
        # a click or a tap draws no focus box (the keyboard's ring only)
        if page.evaluate("() => !!document.querySelector('[data-testid=board] .focus-ring')"):
            problems.append("a focus box drawn after a click")
        if j.tag.split("-")[1] == "phone":
            text = page.inner_text("[data-testid=decision] .prompt")
            if "click" in text or "Enter" in text:
                problems.append(f"a touch screen told to click: {text}")
        assert not problems, f"{j.tag}: {problems}"

    steps = [0]

    def done() -> bool:
        return is_over(page) if until_over else steps[0] >= n

    def counted(count: int) -> None:
        steps[0] = count
        check(count)

    play([page], until=done, limit=120, on_step=counted)


def play_expeditions_to_the_end(page: Any) -> None:
    for _turn in range(12):
        page.wait_for_selector("[data-testid=order-send], [data-testid=result]:not([hidden])", timeout=30_000)
        if page.locator("[data-testid=result]:not([hidden])").count():
            return
        expand_or_pass(page)
    page.wait_for_selector("[data-testid=result]:not([hidden])", timeout=30_000)


# Each tab of the phone's sheet on one line; the log sheet opens at its newest entry.
TABS_JS = r"""
() => [...document.querySelectorAll('[data-testid=side-tabs] button')].filter((b) => {
  const r = document.createRange(); r.selectNodeContents(b);
  return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
}).map((b) => b.textContent)
"""
LOG_AT_END_JS = r"""
() => { const s = document.querySelector('[data-panel=log]');
        return s.scrollHeight > s.clientHeight && s.scrollTop + s.clientHeight >= s.scrollHeight - 2; }
"""


def phone_sheets(j: Journey) -> None:
    page = j.page
    assert page.evaluate(TABS_JS) == [], "tabs wrap"
    page.locator("[data-testid=side-tabs] [data-tab=log]").tap()
    page.wait_for_selector("[data-panel=log] li")
    assert page.evaluate(LOG_AT_END_JS), "the log sheet opens at its newest entry"
    j.screen("7b-log-sheet", ["[data-panel=log] li:last-child", "[data-testid=side-tabs] [data-tab=log]"])
    page.locator("[data-testid=side-tabs] [data-tab=log]").tap()


MATRIX = [(target, size, game) for target in ("direct", "proxy") for size in SIZES
          for game in ("tongiaki", "expeditions")]
# Until deploy/nginx.conf sends /api/ to the replicas, every page behind it misses its records (a 404 on
# the console at the lobby): those cells must fail, and pass once it does.
CELLS = [pytest.param(*m, id="-".join(m)) for m in MATRIX]


@pytest.mark.timeout(900)   # a whole game: a few minutes on a machine busy with other work
@pytest.mark.parametrize(("target", "size", "game"), CELLS)
def test_journey_from_the_lobby_to_a_rematch(browser: Any, contexts: list[Any], targets: dict[str, str],
                                             artifacts: Path, target: str, size: str, game: str) -> None:
    url = targets[target]
    viewport, touch = SIZES[size]
    tag = f"{target}-{size}-{game}"
    page = open_page(browser, contexts, viewport=viewport, touch=touch)
    j = Journey(page, tag, artifacts)
    room = lobby_create(j, url, game)
    page.click("[data-testid=start]")
    tongiaki = game == "tongiaki"
    main_actions = (["[data-testid=board]", "[data-testid=decision]"] if tongiaki
                    else ["[data-testid=board]", "[data-testid=order-send]"])
    tabs = ["[data-testid=side-tabs] [data-tab=players]", "[data-testid=side-tabs] [data-tab=log]"] \
        if size == "phone" and tongiaki else []

    # the first decisions; then a reload in the middle of one: the table comes back, still to decide
    if tongiaki:
        page.wait_for_selector("[data-testid=board][data-interactive=yes]")
        j.screen("4-table", main_actions + tabs)
        click_decisions(j, 8)
        page.wait_for_selector("[data-testid=board][data-interactive=yes]")
    else:
        page.wait_for_selector("[data-testid=order-send]")
        j.screen("4-table", main_actions)
        expand_or_pass(page)
        page.wait_for_selector("[data-testid=order-send]")
        page.click("[data-testid=plus-N]") if page.locator("[data-testid=plus-N]:not([disabled])").count() else None
    page.reload()
    page.wait_for_selector("[data-testid=board][data-interactive=yes]" if tongiaki else "[data-testid=order-send]")
    j.screen("5-reloaded-mid-decision", main_actions + tabs)

    # a spectator arrives in the middle of the game: the board, and (Tongiaki) the way to rewind it
    watcher = open_page(browser, contexts, viewport=viewport, touch=touch)
    w = Journey(watcher, tag + "-spectator", artifacts)
    watcher.goto(f"{url}/{QUERY}#/room/{room}")
    watcher.wait_for_selector("[data-testid=board]")
    watcher.wait_for_selector("[data-testid=spectator]")   # (Expeditions: and no order form)
    assert tongiaki or watcher.locator("[data-testid=order-form]").is_hidden()
    w.screen("6-spectating", ["[data-testid=board]", "[data-testid=rewind]", "[data-testid=nav-lobby]"])

    # to the end: the scores first, then the buttons
    if tongiaki:
        ff = page.evaluate(FAST_FORWARD_JS, [4, 400_000])
        assert ff in ("play", "over"), ff
        click_decisions(j, 0, until_over=True)
    else:
        play_expeditions_to_the_end(page)
    page.wait_for_selector("[data-testid=end-actions]:not([hidden]) [data-testid=end-rematch]")
    j.screen("7-end", ["[data-testid=result]", "[data-testid=end-rematch]", "[data-testid=end-replay]",
                       "[data-testid=end-back]"])
    if tabs:
        phone_sheets(j)
    watcher.wait_for_selector("[data-testid=end-replay]")
    w.screen("8-spectator-end", ["[data-testid=result]", "[data-testid=end-replay]", "[data-testid=end-back]"])

    # the replay, watched to its end
    page.click("[data-testid=end-replay]")
    page.wait_for_selector("[data-testid=replay-bar]")
    page.wait_for_function("() => window.__tongiaki.replay?.table")
    j.screen("9-replay", ["[data-testid=replay-play]", "[data-testid=replay-next]", "[data-testid=board]"])
    page.click("[data-testid=replay-play]")
    page.wait_for_function("() => window.__tongiaki.replay.v >= 2")   # it plays on by itself
    page.wait_for_function("() => { const r = window.__tongiaki.replay; "
                           "return r.v === r.views.length - 1 && !r.playing; }", timeout=240_000)
    page.wait_for_selector("[data-testid=result]:not([hidden])")
    j.screen("10-replay-end", ["[data-testid=replay-start]", "[data-testid=replay-back]"])

    # in Hebrew the bar runs right to left and its arrows point the other way
    page.goto(f"{url}/{QUERY}&lang=he#/replay/{room}")
    page.wait_for_function("() => window.__tongiaki?.replay?.table && document.documentElement.dir === 'rtl'")
    back_right, flipped = page.evaluate("""() => {
      const box = (id) => document.querySelector(`[data-testid=replay-${id}]`).getBoundingClientRect();
      const arrow = getComputedStyle(document.querySelector('[data-testid=replay-prev] .arrow')).transform;
      return [box('prev').left > box('next').left, arrow.startsWith('matrix(-1')]; }""")
    assert back_right and flipped, (back_right, flipped)
    j.screen("10b-replay-hebrew", ["[data-testid=replay-play]", "[data-testid=replay-start]"])

    # back to the game's end, and a rematch: a new waiting room with its own name
    page.goto(f"{url}/{QUERY}&lang=en#/room/{room}")
    page.wait_for_selector("[data-testid=end-rematch]")
    old_name = page.evaluate("() => window.__tongiaki.room.state.settings.name")
    page.click("[data-testid=end-rematch]")
    page.wait_for_selector("[data-testid=seat-list]")
    page.wait_for_function("(id) => window.__tongiaki.room?.id && window.__tongiaki.room.id !== id", arg=room)
    new_name = page.evaluate("() => window.__tongiaki.room.state.settings.name")
    assert new_name != old_name and old_name in new_name, (old_name, new_name)
    j.screen("11-rematch", ["[data-testid=start-bots]", "[data-testid=leave]"])
    w.no_errors("end")


LESSON_CELLS = [pytest.param(target, size, id=f"{target}-{size}") for target in ("direct", "proxy") for size in SIZES]


@pytest.mark.parametrize(("target", "size"), LESSON_CELLS)
def test_journey_a_lesson_finished(browser: Any, contexts: list[Any], targets: dict[str, str], artifacts: Path,
                                   target: str, size: str) -> None:
    viewport, touch = SIZES[size]
    page = open_page(browser, contexts, viewport=viewport, touch=touch)
    j = Journey(page, f"{target}-{size}-lesson", artifacts)
    url = targets[target]
    page.goto(f"{url}/{QUERY}")
    page.wait_for_selector("[data-testid=how-to-play]")
    page.click("[data-testid=how-to-play]")
    page.wait_for_selector("[data-testid=lessons]")
    j.screen("1-lessons", ["[data-testid=lessons] a"])
    page.locator("[data-testid=lessons] a").first.click()
    page.wait_for_selector("[data-testid=tutorial]")
    state = lesson_state(page)
    j.screen("2-lesson", ["[data-testid=tutorial-text]", "[data-testid=board]", "[data-testid=decision]"])
    for _ in range(10):
        if state["state"] == "done":
            break
        make_guide_move(page, state)
        state = lesson_state(page)
    assert state["state"] == "done", state
    j.screen("3-lesson-done", ["[data-testid=tutorial-state]", "[data-testid=nav-lobby]"])

