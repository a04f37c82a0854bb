"""The lessons: a position (`Game.from_position`, or a new game for the set-up), the colour the learner
plays (always red), the moves that the lesson's instructions walk through, and the event that completes
it. Geometry (docs/engine.md): Tonga on [0, 0], its beach i's pier points in world direction i (0 = S,
1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE); the cell south of Tonga is [0, 1], its south-west [-1, 1].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.game import Game
from server.game.catalogue import STACK_TILES

Event = dict[str, Any]
LEARNER = "red"


def _tonga(*beaches: list[str]) -> dict[str, Any]:
    return {"tile": "Tonga", "cell": [0, 0], "rotation": 0, "beaches": [list(b) for b in beaches]}


# An ocean tile south of Tonga, turned so that a fleet from Tonga's south beach sails on to [-1, 1]:
# "p" has no danger at all, "j" a danger of 2 on that path.
CALM = {"tile": "p", "cell": [0, 1], "rotation": 3}
ROUGH = {"tile": "j", "cell": [0, 1], "rotation": 3}


@dataclass(frozen=True)
class Lesson:
    """One lesson: `id`, how its game is built, the learner's moves its instructions walk through (engine
    wire form), and what completes it (`goal`, over the events of the learner's moves)."""

    id: str
    build: Callable[[], Game] = field(repr=False)
    moves: tuple[dict[str, Any], ...] = field(repr=False)
    goal: Callable[[Event], bool] = field(repr=False)
    opponent_plays_setup: bool = False

    def done(self, events: list[Event]) -> bool:
        return any(self.goal(e) for e in events)


def _position(tiles: list[dict[str, Any]], **more: Any) -> Callable[[], Game]:
    return lambda: Game.from_position({"colours": ["red", "blue"], "active": LEARNER, "tiles": tiles,
                                       "seed": 1, **more})


LESSONS: tuple[Lesson, ...] = (
    # set-up (R3): two boats each on Tonga, the opponent places its own in between
    Lesson("setup", lambda: Game.new(["red", "blue"], seed=1, first=LEARNER),
           ({"type": "setup", "beach": 0}, {"type": "setup", "beach": 3}),
           lambda e: e["type"] == "turn_passed", opponent_plays_setup=True),
    # expand (R5): two boats on Tonga, so two new boats, each on its own beach
    Lesson("expand", _position([_tonga(["red"], [], ["blue"], ["red"], [], ["blue"])]),
           ({"type": "expand", "island": "Tonga", "beaches": [1, 4]},),
           lambda e: e["type"] == "boats_placed" and e["reason"] == "expand"),
    # migration and a safe crossing (R6, R7): the south beach fills, a fleet of two colours passes a 2
    Lesson("voyage", _position([_tonga(["red", "blue"], [], [], ["blue"], [], []), ROUGH], stack=["Hawaii"]),
           ({"type": "expand", "island": "Tonga", "beaches": [0]},),
           lambda e: e["type"] == "crossing" and e["passed"] and e["danger"] > 0),
    # a sinking (R7): a fleet of one colour meets a 2
    Lesson("sinking", _position([_tonga(["red", "red"], [], [], ["blue"], [], []), ROUGH], stack=["Hawaii"]),
           ({"type": "expand", "island": "Tonga", "beaches": [0, 3]},),
           lambda e: e["type"] == "sunk"),
    # landing (R8): three boats reach Tubuai's two empty beaches: one on each first, then the third
    Lesson("landing", _position([_tonga(["red", "red"], [], [], ["blue"], [], []), CALM,
                                 {"tile": "Tubuai", "cell": [-1, 1], "rotation": 0, "beaches": [[], []]}]),
           ({"type": "expand", "island": "Tonga", "beaches": [0, 3]},
            {"type": "land", "boats": [["red", 0], ["red", 0], ["red", 1]]}),
           lambda e: e["type"] == "landed" and not e["auto"]),
    # a chain reaction (R9): the landing fills a beach of Tubuai, whose boats sail on in turn
    Lesson("chain", _position([_tonga(["red", "blue"], [], [], ["blue"], [], []), CALM,
                               {"tile": "Tubuai", "cell": [-1, 1], "rotation": 0,
                                "beaches": [["blue", "blue"], []]}], stack=["o", "Samoa"]),
           ({"type": "expand", "island": "Tonga", "beaches": [0]},
            {"type": "land", "boats": [["blue", 1], ["red", 0], ["red", 1]]},
            {"type": "migrate", "island": "Tubuai", "beach": 0, "pier": 2}),
           lambda e: e["type"] == "fleet_departed" and e["island"] == "Tubuai"),
    # a royal island (R10): Tubuai holds only red boats
    Lesson("royal", _position([_tonga([], [], [], ["blue"], ["red"], []), CALM,
                               {"tile": "Tubuai", "cell": [-1, 1], "rotation": 0, "beaches": [["red"], ["red"]]}]),
           ({"type": "royal", "island": "Tubuai"},),
           lambda e: e["type"] == "royal_founded"),
    # a turn-back (R7, R10): the fleet reaches blue's royal island and goes home to Tonga
    Lesson("turn_back", _position([_tonga(["red", "blue"], [], [], ["blue"], [], []), CALM,
                                   {"tile": "Tubuai", "cell": [-1, 1], "rotation": 0, "beaches": [[], []],
                                    "royal": "blue"}]),
           ({"type": "expand", "island": "Tonga", "beaches": [0]},),
           lambda e: e["type"] == "turned_back"),
    # a new colonisation (R11): every red boat leaves the board; tiles are drawn until an island comes
    Lesson("colonise", _position([_tonga(["red"], [], [], ["blue"], [], ["red"])], stack=["o", "Samoa"]),
           ({"type": "colonise"},
            {"type": "place_tile", "cell": [1, 0], "rotation": 0},
            {"type": "place_tile", "cell": [2, 0], "rotation": 0},
            {"type": "settle", "beach": 0}),
           lambda e: e["type"] == "boats_placed" and e["reason"] == "settle"),
    # the end (R13): the last ocean tile of the stack is drawn, the game ends at once and is scored
    Lesson("end", _position([_tonga(["red", "blue"], [], [], ["blue"], [], []),
                             {"tile": "Tubuai", "cell": [-1, 1], "rotation": 0, "beaches": [["red"], []]},
                             {"tile": "Samoa", "cell": [1, 0], "rotation": 0, "beaches": [["blue"], [], []]}],
                            stack=["a", "Hawaii"], stack_exact=True),
           ({"type": "expand", "island": "Tonga", "beaches": [0]},),
           lambda e: e["type"] == "game_over"),
)

BY_ID = {lesson.id: lesson for lesson in LESSONS}

assert all(t in STACK_TILES for t in ("p", "j", "o", "a", "Hawaii", "Samoa", "Tubuai"))
