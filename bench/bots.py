"""Bot strength: tournaments between the levels of server.bots, with the seats rotated.

Pairings: search vs 3 × random, search vs 3 × greedy, greedy vs 3 × random (4 players), and search vs
greedy with 2 players. Each prints the first level's win rate (a shared win counts its share) with a 95 %
Wilson interval against the fair share, its mean and p99 time per decision (every decision it was asked,
forced ones included), and for search the playouts per second. Games run in a pool of processes.

    .venv/bin/python -m bench.bots [--games 200] [--budget 1s] [--workers 2] [--every 20] [--first K]
        [--pairing search-random ...]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from dataclasses import dataclass

from server.bots import Budget, make_bot
from server.bots.search import SearchBot
from server.game import COLOURS, COMPILED, Game


@dataclass(frozen=True, slots=True)
class Pairing:
    """One level against copies of another at a table of `players`."""

    hero: str
    foe: str
    players: int

    @property
    def name(self) -> str:
        return f"{self.hero}-{self.foe}" + ("-2p" if self.players == 2 else "")

    def __str__(self) -> str:
        return f"{self.hero} vs {self.players - 1} × {self.foe} ({self.players} players)"


PAIRINGS = (
    Pairing("search", "random", 4),
    Pairing("search", "greedy", 4),
    Pairing("greedy", "random", 4),
    Pairing("search", "greedy", 2),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game's figures for the hero: its share of the win, its decision times, its search effort."""

    win: float
    times: tuple[float, ...]
    iterations: int
    thinking: float


def play(job: tuple[Pairing, int, str]) -> Outcome:
    """Play game `index` of `pairing`: the hero sits in seat index mod players, the seed is the index."""
    pairing, index, budget = job
    colours = list(COLOURS[: pairing.players])
    hero = colours[index % pairing.players]
    game = Game.new(colours, seed=1_000_000 + index)
    bots = {
        c: make_bot(pairing.hero if c == hero else pairing.foe, seed=index * 10 + i, budget=budget)
        for i, c in enumerate(colours)
    }
    times: list[float] = []
    iterations = 0
    thinking = 0.0
    while game.to_move is not None:
        colour = game.to_move
        bot = bots[colour]
        began = time.perf_counter()
        action = bot.choose(game)
        if colour == hero:
            times.append(time.perf_counter() - began)
            if isinstance(bot, SearchBot) and bot.last is not None:
                iterations += bot.last.iterations
                thinking += bot.last.seconds
        game.apply(action, colour)
    result = game.result()
    assert result is not None
    win = 1.0 / len(result["winners"]) if hero in result["winners"] else 0.0
    return Outcome(win, tuple(times), iterations, thinking)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


def report(pairing: Pairing, outcomes: list[Outcome], seconds: float) -> str:
    n = len(outcomes)
    wins = sum(o.win for o in outcomes)
    low, high = wilson(wins, n)
    times = [t for o in outcomes for t in o.times]
    thinking = sum(o.thinking for o in outcomes)
    iterations = sum(o.iterations for o in outcomes)
    line = (
        f"{pairing}: {wins:g}/{n} won = {wins / n:.1%} (95 % interval {low:.1%}–{high:.1%}; fair share "
        f"{1 / pairing.players:.0%}); per decision mean {1000 * sum(times) / max(1, len(times)):.1f} ms, "
        f"p99 {1000 * percentile(times, 99):.1f} ms over {len(times)} decisions"
    )
    if iterations:
        line += f"; {iterations / thinking:.0f} playouts/s"
    return line + f"; {seconds:.0f} s wall"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--budget", default="1s", help="search budget per decision: '1s' or '500' (iterations)")
    parser.add_argument("--first", type=int, default=0, metavar="K",
                        help="play games K.. (with an iteration budget a game is fixed by its number: "
                             "extends an earlier run)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing games at once")
    parser.add_argument("--every", type=int, default=0, metavar="N",
                        help="also print the figures so far after every N games (the games so far, in order)")
    parser.add_argument(
        "--pairing", action="append", choices=[p.name for p in PAIRINGS], help="only these pairings (repeatable)"
    )
    args = parser.parse_args()
    budget = str(Budget.of(args.budget).iterations or f"{Budget.of(args.budget).seconds}s")
    chosen = [p for p in PAIRINGS if not args.pairing or p.name in args.pairing]
    print(f"engine compiled: {COMPILED}; search budget {Budget.of(args.budget)} per decision; {args.games} games per "
          f"pairing; {args.workers} worker processes")
    with multiprocessing.Pool(args.workers) as pool:
        for pairing in chosen:
            began = time.perf_counter()
            outcomes: list[Outcome] = []
            games = range(args.first, args.first + args.games)
            for outcome in pool.imap(play, [(pairing, i, budget) for i in games], chunksize=1):
                outcomes.append(outcome)
                if args.every and len(outcomes) % args.every == 0 and len(outcomes) < args.games:
                    print("  so far: " + report(pairing, outcomes, time.perf_counter() - began), flush=True)
            print(report(pairing, outcomes, time.perf_counter() - began), flush=True)


if __name__ == "__main__":
    main()
