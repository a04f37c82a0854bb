"""The Expeditions lessons over a real socket and a real Redis (EXPEDITIONS.md E3-E12): each is completed by
the order its guide names, resolved by the engine with the tutor's order; an order the rules refuse, and a
legal order that is not the lesson's, are refused and change nothing."""

from __future__ import annotations

import pytest
from tablekit import people

from server.tutorial.expeditions import EX_LESSONS

# what each lesson shows happening, by its events (E5 orders, E7-E8 migration, E8.2 weather, E10, E11)
SHOWS = {"ex_orders": "boat_moved", "ex_migration": "landfall", "ex_weather": "fleet_lost",
         "ex_typhoon": "typhoon", "ex_end": "game_over"}


@pytest.mark.parametrize("lesson", EX_LESSONS, ids=[lesson.id for lesson in EX_LESSONS])
async def test_each_expeditions_lesson_is_completed_by_its_order(server, clients, lesson):
    learner, = await people(server.url, clients, "Learner")
    answer = await learner.ok("tutorial_start", {"lesson": lesson.id})
    assert answer["mode"] == "expeditions" and answer["view"]["mode"] == "expeditions"
    assert answer["step"] == 0 and not answer["done"] and answer["legal"] is not None
    assert answer["moves"] == [lesson.order] and answer["events"] == []
    assert "deck" not in answer["view"] or isinstance(answer["view"]["deck"]["remaining"], list)
    done = await learner.ok("tutorial_act", {"lesson": lesson.id, "action": lesson.order})
    types = [e["type"] for e in done["events"]]
    assert done["done"] and not done["retry"] and done["legal"] is None, types
    assert types[0] == "orders" and SHOWS[lesson.id] in types, types
    # the tutor's order is revealed with the learner's, as at a table (E13)
    assert set(done["events"][0]["orders"]) == {"red", "blue"}
    # the lesson's one turn is played: another order is refused until it starts again
    again = await learner.call("tutorial_act", {"lesson": lesson.id, "action": lesson.order})
    assert again["error"]["code"] == "not_your_turn"


async def test_expeditions_lesson_refuses_other_orders_and_changes_nothing(server, clients):
    a, = await people(server.url, clients, "A")
    start = await a.ok("tutorial_start", {"lesson": "ex_migration"})
    # E4: a beach that is not Tonga's, an island with no boat of red's: the engine's reasons
    bad = await a.call("tutorial_act", {"lesson": "ex_migration",
                                         "action": {"type": "expand", "island": "TONG", "moves": {"X": 1}}})
    assert bad["error"]["code"] == "illegal_action"
    royal = await a.call("tutorial_act", {"lesson": "ex_migration", "action": {"type": "royal", "island": "TONG"}})
    assert royal["error"]["code"] == "illegal_action" and royal["error"]["reason"] == "tonga"
    # legal, but not the lesson's order (the east beach): refused, and the lesson's order still completes it
    wrong = await a.call("tutorial_act", {"lesson": "ex_migration",
                                           "action": {"type": "expand", "island": "TONG", "moves": {"E": 1}}})
    assert wrong["error"]["code"] == "not_the_lesson"
    done = await a.ok("tutorial_act", {"lesson": "ex_migration",
                                        "action": {"type": "expand", "island": "TONG", "moves": {"N": 1}}})
    assert done["done"]
    assert start["view"]["tiles"] != done["view"]["tiles"]
    # a lesson of the other game is not this one's
    assert (await a.call("tutorial_act", {"lesson": "expand", "action": {"type": "pass"}}))["error"]["code"] \
        == "not_playing"
