"""Engine benchmark: complete random-bot games per second, decisions per game, and the time to list the
legal actions of a decision, for 2, 4 and 6 colours. Medians of several runs, all in one process so the
figures compare with each other; the slowest single game of all runs is printed too (rare games spend long
in an exhaustive R9 search), and whether the engine ran compiled (mypyc, setup.py) or as plain Python.

    .venv/bin/python -m bench.engine [--games 200] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from server.game import COLOURS, COMPILED, Game
from server.game.bots import RandomBot, play_out


def games_per_second(players: int, games: int, first_seed: int) -> tuple[float, float, float]:
    """Play `games` complete games with the random bot; (games per second, decisions per game, seconds of
    the slowest game)."""
    decisions = 0
    slowest = 0.0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        began = time.perf_counter()
        game = Game.new(list(COLOURS[:players]), seed=seed)
        decisions += play_out(game, RandomBot(seed))
        slowest = max(slowest, time.perf_counter() - began)
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / games, slowest


def listing_times(players: int, games: int) -> list[float]:
    """Seconds to list the legal actions of every decision of `games` random games (first listing of each
    decision: nothing cached)."""
    times = []
    for seed in range(games):
        game = Game.new(list(COLOURS[:players]), seed=10_000 + seed)
        rng = random.Random(seed)
        while game.to_move is not None:
            start = time.perf_counter()
            legal = game.legal_actions()
            times.append(time.perf_counter() - start)
            game.apply(legal[rng.randrange(len(legal))])
    return times


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per player count (median reported)")
    parser.add_argument("--listing-games", type=int, default=60, help="games for the listing timings")
    args = parser.parse_args()
    engine = "compiled (mypyc)" if COMPILED else "plain Python (not compiled)"
    print(f"engine benchmark, {engine}: {args.runs} runs x {args.games} random-bot games per player count")
    print(
        f"{'colours':>7} {'games/s':>9} {'min':>7} {'max':>7} {'decisions/game':>15} {'list p50':>9} {'list p99':>9}"
        f" {'slowest game':>13}"
    )
    counts = (2, 4, 6)
    rates: dict[int, list[float]] = {players: [] for players in counts}
    decisions: dict[int, list[float]] = {players: [] for players in counts}
    slowest = dict.fromkeys(counts, 0.0)
    # Runs of each player count take turns, so that a slow spell of a noisy machine falls on all of them
    # alike rather than on one; each run plays the same seeds for every count.
    for run in range(args.runs):
        for players in counts:
            rate, per_game, worst = games_per_second(players, args.games, first_seed=run * args.games)
            rates[players].append(rate)
            decisions[players].append(per_game)
            slowest[players] = max(slowest[players], worst)
    for players in counts:
        listing = listing_times(players, args.listing_games)
        print(
            f"{players:>7} {statistics.median(rates[players]):>9.0f} {min(rates[players]):>7.0f}"
            f" {max(rates[players]):>7.0f} {statistics.median(decisions[players]):>15.1f}"
            f" {percentile(listing, 50) * 1e6:>7.0f}us {percentile(listing, 99) * 1e6:>7.0f}us"
            f" {slowest[players] * 1e3:>11.0f}ms"
        )


if __name__ == "__main__":
    main()
