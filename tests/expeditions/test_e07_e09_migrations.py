"""E7 migrations, E8 voyages, E9 chain reactions."""

from server.game.expeditions.catalogue import Cell

from .helpers import kinds, position

TONGA = {"tile": "TONG", "cell": [6, 6]}


def departures(events: list) -> list:
    return [(e.island, e.beach) for e in events if e.kind == "fleet_departed"]


def test_e7_beach_with_most_boats_migrates_first() -> None:
    game = position(
        [
            {**TONGA, "beaches": {"N": ["red"] * 4, "S": ["blue"] * 5}},
            {"tile": "MURO", "cell": [6, 5]},
            {"tile": "NAUR", "cell": [6, 7]},
        ]
    )
    events = game.resolve()
    assert departures(events) == [("TONG", "S"), ("TONG", "N")]
    assert [e.tied for e in events if e.kind == "fleet_departed"] == [1, 1]


def test_e7_tie_broken_by_the_random_state() -> None:
    tiles = [
        {**TONGA, "beaches": {"N": ["red"] * 4, "S": ["blue"] * 4}},
        {"tile": "MURO", "cell": [6, 5]},
        {"tile": "NAUR", "cell": [6, 7]},
    ]
    assert departures(position(tiles, draws=[1]).resolve())[0] == ("TONG", "S")
    assert departures(position(tiles, draws=[0]).resolve())[0] == ("TONG", "N")


def test_e7_migration_value_counts_colours() -> None:
    game = position([{**TONGA, "beaches": {"N": ["red", "red", "blue", "red"]}}, {"tile": "MURO", "cell": [6, 5]}])
    fleet = next(e for e in game.resolve() if e.kind == "fleet_departed")
    assert fleet.mv == 2 and fleet.boats == ("red", "red", "blue", "red")


def test_e7_a_beach_migrates_once_per_phase() -> None:
    # bounced off a royal island, all four boats land back on the beach they left: it keeps them this turn
    game = position(
        [{**TONGA, "beaches": {"N": ["red"] * 4}}, {"tile": "MURO", "cell": [6, 5], "royal": "blue"}],
        draws=[0, 0, 0, 0],
    )
    events = game.resolve()
    assert departures(events) == [("TONG", "N")] and "bounced" in kinds(events)
    assert game.beaches[Cell(6, 6)]["N"] == ["red"] * 4
    assert departures(game.resolve())[:1] == [("TONG", "N")]  # and migrates again next turn


def test_e8_weather_factor_read_at_the_entry_end() -> None:
    # S01's N-S route: factor 3 printed at the N end, 1 at the S end
    north = position(
        [{**TONGA, "beaches": {"N": ["red"] * 4}}, {"tile": "S01", "cell": [6, 5]}, {"tile": "MURO", "cell": [6, 4]}],
        draws=[2, 2, 2, 1],
    )
    events = north.resolve()
    sailed = next(e for e in events if e.kind == "route_sailed")
    assert (sailed.entry, sailed.exit, sailed.factor, sailed.mv, sailed.survived) == ("S", "N", 1, 1, True)
    assert north.beaches[Cell(6, 4)]["S"] == ["red"] * 3 and "landfall" in kinds(events)
    south = position(
        [
            {"tile": "TONG", "cell": [6, 6]},
            {"tile": "S01", "cell": [6, 5]},
            {"tile": "MURO", "cell": [6, 4], "beaches": {"S": ["red"] * 4}},
        ]
    )
    events = south.resolve()
    sailed = next(e for e in events if e.kind == "route_sailed")
    assert (sailed.entry, sailed.factor, sailed.survived) == ("N", 3, False)
    lost = next(e for e in events if e.kind == "fleet_lost")
    assert lost.how == "weather" and south.supply["red"] == 15


def test_e8_falling_off_the_edge() -> None:
    game = position([TONGA, {"tile": "MURO", "cell": [1, 3], "beaches": {"W": ["red", "blue", "red", "blue"]}}])
    events = game.resolve()
    lost = next(e for e in events if e.kind == "fleet_lost")
    assert lost.how == "edge" and lost.cell == Cell(0, 3)
    assert game.supply == {"red": 15, "blue": 15}


def test_e8_empty_cell_gets_the_deck_top_as_printed() -> None:
    game = position([{**TONGA, "beaches": {"E": ["red"] * 4}}], top=["S04", "NAUR"], draws=[])
    events = game.resolve()
    placed = [(e.tile, e.cell) for e in events if e.kind == "tile_placed"]
    # S04 routes N-W and S-E: entering by W the fleet turns north, onto the next empty cell
    assert placed == [("S04", Cell(7, 6)), ("NAUR", Cell(7, 5))]
    assert game.deck[0] != "S04" and "landfall" in kinds(events)


def test_e8_bouncing_off_a_royal_island_lands_on_the_departure_island() -> None:
    game = position(
        [{**TONGA, "beaches": {"N": ["red"] * 4}}, {"tile": "MURO", "cell": [6, 5], "royal": "blue"}],
        draws=[1, 2, 3, 1],
    )
    events = game.resolve()
    bounced = next(e for e in events if e.kind == "bounced")
    assert (bounced.royal, bounced.back_to) == ("MURO", "TONG")
    landfall = next(e for e in events if e.kind == "landfall")
    assert landfall.island == "TONG" and [b for _c, b in landfall.placements] == ["E", "S", "W", "E"]


def test_e8_landfall_spreads_boats_at_random_whatever_the_beaches_hold() -> None:
    game = position(
        [
            {**TONGA, "beaches": {"N": ["red", "blue", "red", "blue"]}},
            {"tile": "MURO", "cell": [6, 5], "beaches": {"W": ["red"] * 3}},
        ],
        draws=[1, 3, 1, 1],
    )
    landfall = next(e for e in game.resolve() if e.kind == "landfall")
    assert landfall.placements == (("red", "E"), ("blue", "W"), ("red", "E"), ("blue", "E"))
    # W now holds 4 and overflows: that is E9's chain reaction, tested below


def test_e9_chain_reaction() -> None:
    game = position(
        [
            {**TONGA, "beaches": {"N": ["red"] * 4}},
            {"tile": "MURO", "cell": [6, 5], "beaches": {"E": ["blue"] * 3}},
            {"tile": "NAUR", "cell": [7, 5]},
        ],
        draws=[1, 0, 0, 0],
    )
    events = game.resolve()
    assert departures(events) == [("TONG", "N"), ("MURO", "E")]
    assert [e.island for e in events if e.kind == "landfall"] == ["MURO", "NAUR"]
    assert sum(len(b) for b in game.beaches[Cell(7, 5)].values()) == 4
