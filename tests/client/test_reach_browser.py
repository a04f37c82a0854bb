"""The lobby's "Your turns" (client/src/ui/reach.js, server/notify/): the tables being played where the
person is seated, the one waiting for their order first with its deadline, the page title counting them,
and, on a server whose operator configured no mail and no push (this suite's), the panel saying so."""

from __future__ import annotations

import re

from browserkit import PHONE, open_page


def test_your_turns_lists_the_table_waiting_for_you_and_counts_it_in_the_title(browser, contexts, base_url, artifacts):
    for name, viewport, touch in (("desktop", {"width": 1366, "height": 800}, False), ("phone", PHONE, True)):
        page = open_page(browser, contexts, viewport=viewport, touch=touch)
        page.goto(f"{base_url}/")
        page.wait_for_selector("[data-testid=create-form]")
        room = page.evaluate("""async () => {
          const net = window.__tongiaki.net;
          const made = await net.request('room_create', { name: 'Over the days', game: 'expeditions', seats: 2,
                                                          clock: 86400, bot_pace: 10, grace: 600 });
          await net.request('room_start', { room: made.room.id, fill_with_bots: true });
          return made.room.id; }""")
        page.goto(f"{base_url}/#/room/{room}")
        page.wait_for_selector("[data-testid=nav-lobby]")
        page.click("[data-testid=nav-lobby]")
        row = page.wait_for_selector(f"[data-testid=your-turns] li[data-room={room}][data-expected=true]")
        assert "Over the days" in row.inner_text()
        deadline = page.inner_text(f"[data-testid=your-turns] li[data-room={room}] [data-testid=reach-deadline]")
        assert re.search(r"\(2[34] h \d+ min\)", deadline), deadline   # E3: a day's deadline, just begun
        page.wait_for_function("document.title.startsWith('(1) ')")
        assert page.title() == "(1) Tongiaki Online"
        assert page.is_visible("[data-testid=reach-off]")   # no SMTP host, no VAPID key here: it says so
        assert page.input_value(f"[data-testid=your-turns] li[data-room={room}] select") == "mine"
        page.locator("[data-testid=your-turns-panel]").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"your-turns-{name}.png"))
        # the table's link opens it; the count was the lobby's
        page.click(f"[data-testid=your-turns] li[data-room={room}] a")
        page.wait_for_function(f"location.hash === '#/room/{room}' && !document.title.startsWith('(')")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
