"""E1 components and E2 board set-up."""

from collections import Counter

from server.game.expeditions import TILES, Expeditions
from server.game.expeditions.catalogue import BY_NUMBER, ISLANDS, SEAS, Cell, Island


def test_e1_catalogue_48_tiles_and_factor_counts() -> None:
    assert len(ISLANDS) == 16 and len(SEAS) == 32 and len(TILES) == 48
    assert sorted(Counter(i.value for i in ISLANDS).items()) == [(0, 1), (2, 3), (3, 4), (4, 5), (5, 3)]
    ends = Counter(f for s in SEAS for r in s.routes for f in (r.factor_a, r.factor_b))
    assert ends == {1: 51, 2: 38, 3: 26, 4: 13}
    assert isinstance(BY_NUMBER[1], Island) and BY_NUMBER[1].abbr == "TONG" and BY_NUMBER[17].id == "S01"


def test_e2_set_up_tonga_four_seas_secret_deck() -> None:
    game = Expeditions.new(["red", "blue", "green"], seed=5)
    assert game.board[Cell(6, 6)] == "TONG"
    assert {c for c in game.board} == {Cell(6, 6), Cell(5, 5), Cell(7, 5), Cell(5, 7), Cell(7, 7)}
    assert len(game.deck) == 43 and all(game.supply[c] == 15 for c in game.colours)
    view = game.view()
    assert view["deck"]["remaining"] == sorted(game.deck) and view["deck"] == {
        **view["deck"],
        "islands": 15,
        "seas": 28,
    }
    assert "seed" not in view and "dice" not in str(view)
    assert Expeditions.new(["red", "blue", "green"], seed=5).deck == game.deck
    assert Expeditions.new(["red", "blue", "green"], seed=6).deck != game.deck
