"""The Expeditions lessons (EXPEDITIONS.md E3-E12): engine positions with a fixed deck and fixed random
outcomes, the learner's order (red) and the tutor's (blue), and the event that completes each. One order per
lesson: the learner sends it through the real order form, both orders are resolved by the engine, and the
turn report plays. Cells: Tonga on (6, 6); north is y - 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.game.expeditions import Expeditions
from server.game.expeditions.catalogue import TILES

Event = dict[str, Any]
LEARNER, TUTOR = "red", "blue"

# the four sea tiles of a set-up (E2) on the diagonals, and S05 north of Tonga: its north-south route has
# weather 2 at both ends
CORNERS = [{"tile": "S01", "cell": [5, 5]}, {"tile": "S02", "cell": [7, 5]},
           {"tile": "S03", "cell": [5, 7]}, {"tile": "S04", "cell": [7, 7]}]
NORTH_SEA = {"tile": "S05", "cell": [6, 5]}
# the typhoon's draw (E10): 0-47 names tile 1-48; tile 1 is Tonga, an island: no typhoon
CALM = 0
S05_NUMBER = 16 + 5   # islands are 1-16, sea tiles 17-48 in the catalogue's order: S05 is 21


def _deck(on_map: list[str], top: list[str]) -> list[str]:
    """The whole deck: `top` first, then every other tile not on the map in catalogue order."""
    rest = [t for t in TILES if t not in on_map and t not in top]
    return list(top) + rest


def _position(tiles: list[dict[str, Any]], *, top: Sequence[str] = (), draws: Sequence[int] = (), turn: int = 1,
              ) -> Callable[[], Expeditions]:
    ids = [t["tile"] for t in tiles]
    return lambda: Expeditions.from_position({"colours": [LEARNER, TUTOR], "turn": turn, "seed": 1,
                                              "tiles": tiles, "deck": _deck(ids, list(top)),
                                              "draws": list(draws)})


def _tonga(**beaches: list[str]) -> dict[str, Any]:
    return {"tile": "TONG", "cell": [6, 6], "beaches": beaches}


@dataclass(frozen=True)
class ExLesson:
    """One Expeditions lesson: `id`, its position, the learner's order the guide names, the tutor's order,
    and what completes it (`goal`, over the turn's events)."""

    id: str
    build: Callable[[], Expeditions] = field(repr=False)
    order: dict[str, Any] = field(repr=False)
    tutor: dict[str, Any] = field(repr=False)
    goal: Callable[[Event], bool] = field(repr=False)

    def done(self, events: list[Event]) -> bool:
        return any(self.goal(e) for e in events)


EX_LESSONS: tuple[ExLesson, ...] = (
    # E3-E5: secret orders at once; Tonga gives 2 boat moves to everyone
    ExLesson("ex_orders", _position([_tonga(), *CORNERS], draws=[CALM]),
             {"type": "expand", "island": "TONG", "moves": {"N": 2}},
             {"type": "expand", "island": "TONG", "moves": {"E": 2}},
             lambda e: e["type"] == "orders"),
    # E6-E8: a fourth boat makes the north beach overflow; two colours cross a weather of 2 and find Oahu
    ExLesson("ex_migration", _position([_tonga(N=["red", "red", "blue"]), *CORNERS, NORTH_SEA], top=["OAHU"],
                                       draws=[0, 1, 2, 0, CALM]),
             {"type": "expand", "island": "TONG", "moves": {"N": 1}},
             {"type": "pass"},
             lambda e: e["type"] == "landfall"),
    # E8.2: one colour against a weather of 2: the fleet is lost, its boats go home
    ExLesson("ex_weather", _position([_tonga(N=["red", "red", "red"], E=["blue"]), *CORNERS, NORTH_SEA],
                                     top=["OAHU"], draws=[CALM]),
             {"type": "expand", "island": "TONG", "moves": {"N": 1}},
             {"type": "pass"},
             lambda e: e["type"] == "fleet_lost"),
    # E10: the typhoon's number names the sea tile north of Tonga: a new tile takes its place, weather +1
    ExLesson("ex_typhoon", _position([_tonga(N=["red"], E=["blue"]), *CORNERS, NORTH_SEA],
                                     draws=[S05_NUMBER - 1, 0, 0]),
             {"type": "pass"},
             {"type": "pass"},
             lambda e: e["type"] == "typhoon"),
    # E5, E11, E12: the last turn; a royal island scores for its founder, and turn 10 ends the game
    ExLesson("ex_end", _position([_tonga(E=["blue"]), *CORNERS, NORTH_SEA,
                                  {"tile": "OAHU", "cell": [6, 4], "beaches": {"N": ["red"], "W": ["red"]}},
                                  {"tile": "MURO", "cell": [7, 6], "beaches": {"S": ["blue"]}}],
                                 draws=[CALM], turn=10),
             {"type": "royal", "island": "OAHU"},
             {"type": "pass"},
             lambda e: e["type"] == "game_over"),
)

EX_BY_ID = {lesson.id: lesson for lesson in EX_LESSONS}
