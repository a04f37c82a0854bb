"""The tutorial over a real socket and a real Redis: every lesson is completed by its own moves, checked
by the engine; wrong moves, and legal moves that are not the lesson's, are refused and change nothing."""

from __future__ import annotations

import pytest
from tablekit import people

from server.tutorial import LESSONS


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
async def test_each_lesson_is_completed_by_its_moves(server, clients, lesson):
    learner, = await people(server.url, clients, "Learner")
    answer = await learner.ok("tutorial_start", {"lesson": lesson.id})
    assert answer["step"] == 0 and not answer["done"] and answer["legal"]
    assert answer["moves"] == list(lesson.moves)
    for i, move in enumerate(lesson.moves):
        assert not answer["done"]
        assert move in answer["legal"], (i, move)
        answer = await learner.ok("tutorial_act", {"lesson": lesson.id, "action": move})
        assert answer["step"] == i + 1
    assert answer["done"] and not answer["retry"]
    pending = answer["view"]["pending"]
    assert (answer["legal"] == []) == (pending is None or pending["colour"] != "red")
    assert "seed" not in str(answer["view"].keys())


async def test_wrong_moves_and_moves_not_the_lessons_are_refused_and_change_nothing(server, clients):
    a, b = await people(server.url, clients, "A", "B")
    assert (await a.call("tutorial_start", {"lesson": "nope"}))["error"]["code"] == "malformed"
    assert (await a.call("tutorial_act", {"lesson": "expand", "action": {"type": "colonise"}}))["error"]["code"] \
        == "not_playing"
    await a.ok("tutorial_start", {"lesson": "sinking"})
    illegal = await a.call("tutorial_act", {"lesson": "sinking", "action": {"type": "expand", "island": "Tonga",
                                                                            "beaches": [9]}})
    assert illegal["error"]["code"] == "illegal_action"
    assert (await a.call("tutorial_act", {"lesson": "sinking", "action": "x"}))["error"]["code"] == "malformed"
    # another person's lesson is their own
    assert (await b.call("tutorial_act", {"lesson": "sinking", "action": {"type": "colonise"}}))["error"]["code"] \
        == "not_playing"
    # a legal move that is not the lesson's (expanding away from the south beach): refused, nothing changes,
    # the learner tries again
    wrong = await a.call("tutorial_act", {"lesson": "sinking", "action": {"type": "expand", "island": "Tonga",
                                                                          "beaches": [1, 2]}})
    assert wrong["error"]["code"] == "not_the_lesson"
    # the lesson's move, its beaches in another order, is the lesson's move: the step the refusal left as it was
    done = await a.ok("tutorial_act", {"lesson": "sinking", "action": {"type": "expand", "island": "Tonga",
                                                                       "beaches": [3, 0]}})
    assert done["step"] == 1 and done["done"] and not done["retry"]
    again = await a.ok("tutorial_start", {"lesson": "sinking"})
    assert again["step"] == 0 and again["legal"]
