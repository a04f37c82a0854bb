"""E10 typhoons, E11 the three endings, E12 scores."""

from server.game.expeditions.catalogue import Cell

from .helpers import kinds, position, rim

TONGA = {"tile": "TONG", "cell": [6, 6]}


def test_e10_typhoon_replaces_a_sea_tile_with_plus_one_factors_and_returns_it_to_the_deck() -> None:
    # draws: typhoon tile number 17 (S01, on the map), the deck's first sea tile, the struck tile back on top
    game = position([TONGA, {"tile": "S01", "cell": [5, 5]}], top=["S09", "MURO"], draws=[16, 0, 0])
    events = game.resolve()
    drawn = next(e for e in events if e.kind == "typhoon_drawn")
    assert (drawn.number, drawn.tile, drawn.struck) == (17, "S01", True)
    typhoon = next(e for e in events if e.kind == "typhoon")
    assert (typhoon.cell, typhoon.struck, typhoon.tile) == (Cell(5, 5), "S01", "S09")
    assert game.board[Cell(5, 5)] == "S09" and Cell(5, 5) in game.boosted and game.deck[0] == "S01"
    tile = next(t for t in game.view()["tiles"] if t["cell"] == [5, 5])
    assert tile["boosted"] and tile["routes"] == [["N", "S", 2, 2], ["E", "W", 3, 2]]  # S09 printed 1/1 and 2/1


def test_e10_no_typhoon_for_an_island_or_a_tile_in_the_deck() -> None:
    for number in (0, 40):  # Tonga; S24 (in the deck)
        game = position([TONGA, {"tile": "S01", "cell": [5, 5]}], draws=[number])
        events = game.resolve()
        assert "typhoon" not in kinds(events) and not next(e for e in events if e.kind == "typhoon_drawn").struck


def test_e10_boosted_factor_counts_in_a_voyage() -> None:
    # S09's N-S route prints 1 at its S end: with the typhoon's +1 a lone colour's fleet (MV 1) is lost
    game = position([{**TONGA, "beaches": {"N": ["red"] * 4}}, {"tile": "S09", "cell": [6, 5], "boosted": True}])
    sailed = next(e for e in game.resolve() if e.kind == "route_sailed")
    assert (sailed.factor, sailed.survived) == (2, False)


def test_e11_last_island_tile_ends_the_game_at_once_mid_migration() -> None:
    tiles = [{**TONGA, "beaches": {"N": ["red"] * 5, "S": ["blue"] * 4}}, *rim(14, 0, {"SAMO"})]
    game = position(tiles, top=["SAMO"], draws=[0, 1, 2, 3, 0])
    events = game.resolve()
    assert departures_of(events) == ["N"]
    assert kinds(events)[-3:] == ["landfall", "turn_scored", "game_over"] and "typhoon_drawn" not in kinds(events)
    assert game.over == "last_tile" and game.beaches[Cell(6, 6)]["S"] == ["blue"] * 4  # never resolved
    assert game.result()["scores"]["red"] == 5


def test_e11_last_sea_tile_the_fleet_stays_at_sea_scoring_nothing() -> None:
    tiles = [{**TONGA, "beaches": {"N": ["red"] * 4}}, *rim(0, 31, {"S32"})]
    game = position(tiles, top=["S32"])
    events = game.resolve()
    assert kinds(events)[-3:] == ["fleet_at_sea", "turn_scored", "game_over"]
    assert game.at_sea == [(Cell(6, 5), ("red",) * 4)] and game.supply["red"] + game.on_map("red") == 15
    assert game.result()["scores"]["red"] == 0 and game.result()["boats"]["red"] == 4


def test_e11_twelve_islands_end_the_game_at_the_end_of_the_turn() -> None:
    game = position([TONGA, *rim(11, 0, set())], draws=[47])
    assert game.resolve()[-1].kind == "game_over" and game.over == "islands"
    game = position([TONGA, *rim(10, 0, set())], draws=[47])
    game.resolve()
    assert game.over is None and game.turn == 2


def test_e11_turn_ten_is_the_last() -> None:
    game = position([TONGA], turn=9)
    game.resolve()
    assert game.over is None
    events = game.resolve()
    assert game.over == "turns" and events[-1].reason == "turns" and game.turn == 10


def test_e12_scores_presence_royal_and_tie_breaks() -> None:
    game = position(
        [
            {**TONGA, "beaches": {"N": ["red"]}},
            {"tile": "SAMO", "cell": [2, 2], "beaches": {"N": ["red", "red"], "E": ["blue"]}},
            {"tile": "MURO", "cell": [3, 3], "royal": "blue"},
            {"tile": "NAUR", "cell": [4, 3], "beaches": {"S": ["red"]}},
        ],
        turn=10,
    )
    game.resolve()
    result = game.result()
    assert result["scores"] == {"red": 7, "blue": 7} and result["islands"] == {"red": 3, "blue": 2}
    assert result["winners"] == ["red"] and result["decided_by"] == "islands"


def departures_of(events: list) -> list:
    return [e.beach for e in events if e.kind == "fleet_departed"]
