"""A digest of everything the engine lets a player, a client or a test observe in many random games: every
action taken, the events it caused, the view and legal actions after it and the final result, for seeds x 2,
4 and 6 colours x both variants (R14). Two engines that print the same digest behave the same on all of these
games; run it before and after a refactoring, compiled and as plain Python.

    python -m bench.digest [--seeds 80]

Each game is played by the random bot from its seed; its transcript is serialised with sorted keys and
hashed. The total games printed must be at least 900 for a refactoring's proof (the engine's
behaviour unchanged).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from server.game import COLOURS, COMPILED, Game
from server.game.bots import RandomBot

SETTINGS: tuple[tuple[int, dict[str, bool]], ...] = (
    (2, {}),
    (2, {"free_follow_up": True}),
    (4, {}),
    (4, {"free_follow_up": True}),
    (4, {"two_colours": True}),
    (4, {"two_colours": True, "free_follow_up": True}),
    (6, {}),
    (6, {"free_follow_up": True}),
)
"""Player counts and variants: the two-colours variant takes exactly four colours."""


def _feed(hasher: Any, value: Any) -> None:
    hasher.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())
    hasher.update(b"\n")


def _seen(game: Game) -> dict[str, Any]:
    """The view, with the legal actions (their own call) under `legal`."""
    return {**game.view(), "legal": game.legal_actions()}


def game_digest(players: int, variants: dict[str, bool], seed: int) -> tuple[str, int]:
    """The digest of one random game and the number of decisions taken in it."""
    hasher = hashlib.sha256()
    game = Game.new(list(COLOURS[:players]), seed=seed, variants=variants)
    bot = RandomBot(seed)
    _feed(hasher, _seen(game))
    n = 0
    while game.to_move is not None:
        action = bot.choose(game)
        _feed(hasher, action)
        _feed(hasher, game.apply(action))
        _feed(hasher, _seen(game))
        n += 1
    _feed(hasher, game.result())
    _feed(hasher, game.log)
    return hasher.hexdigest(), n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=115, help="seeds per setting (8 settings)")
    args = parser.parse_args()
    total = hashlib.sha256()
    games = decisions = 0
    for players, variants in SETTINGS:
        for seed in range(args.seeds):
            digest, n = game_digest(players, variants, seed)
            total.update(digest.encode())
            games += 1
            decisions += n
    engine = "compiled" if COMPILED else "plain Python"
    print(f"{games} games, {decisions} decisions, {engine}: {total.hexdigest()}")


if __name__ == "__main__":
    main()
