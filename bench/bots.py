"""Bot strength: tournaments between the levels of server.bots, with the seats rotated.

Pairings: search vs 3 × random, search vs 3 × greedy, greedy vs 3 × random (4 players), and search vs
greedy with 2 players; and in Expeditions (EXPEDITIONS.md, simultaneous orders: server/bots/expeditions.py)
search vs 2 × greedy and greedy vs 2 × random (3 players). Each prints the first level's win rate (a shared
win counts its share) with a 95 % Wilson interval against the fair share, its mean and p99 time per
decision (every decision it was asked, forced ones included), and for search the playouts per second.
Games run in a pool of processes.

`--budget turn` gives the search level the table's budget per turn (server.bots.turn_budget: a share of
what is left of TURN_BUDGET seconds for each decision of a turn) instead of a fixed budget per decision;
`--compare` plays each pairing's games with the fixed budget and with the turn's, interleaved in one run,
and prints both. `--turns N` plays N whole games at a table of one bot of each level (seats rotated),
every decision through the game mode's `bot_action` exactly as a bot worker calls it (from the stored
bytes, told how long its turn has been thought about), and prints each level's whole-turn times (all the
decisions of one turn, p50/p99/max): at the table a turn takes the room's bot pace more, and a few
milliseconds a decision for the queue and the store.

    .venv/bin/python -m bench.bots [--games 200] [--budget 1s|turn] [--compare] [--workers 2] [--every 20]
        [--first K] [--pairing search-random ...] [--turns N]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from dataclasses import dataclass

from server.bots import LEVELS, TURN_BUDGET, Budget, make_bot, turn_budget
from server.bots.expeditions import SearchBot as ExpeditionsSearch
from server.bots.expeditions import expeditions_bot
from server.bots.search import SearchBot
from server.game import COLOURS, COMPILED, Game
from server.game.expeditions import Expeditions
from server.lobby.tongiaki import Tongiaki

TURN = "turn"
"""The `--budget` that spends the table's budget per turn (server.bots.turn_budget)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One level against copies of another at a table of `players`."""

    hero: str
    foe: str
    players: int
    game: str = "tongiaki"

    @property
    def name(self) -> str:
        return ("ex-" if self.game == "expeditions" else "") + f"{self.hero}-{self.foe}" + (
            "-2p" if self.players == 2 else "")

    def __str__(self) -> str:
        where = "Expeditions, " if self.game == "expeditions" else ""
        return f"{self.hero} vs {self.players - 1} × {self.foe} ({where}{self.players} players)"


PAIRINGS = (
    Pairing("search", "random", 4),
    Pairing("search", "greedy", 4),
    Pairing("greedy", "random", 4),
    Pairing("search", "greedy", 2),
    Pairing("search", "greedy", 3, "expeditions"),
    Pairing("greedy", "random", 3, "expeditions"),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game's figures for the hero: its share of the win, its decision times, its search effort."""

    win: float
    times: tuple[float, ...]
    iterations: int
    thinking: float


def play_expeditions(pairing: Pairing, index: int, budget: str) -> Outcome:
    """Game `index` of an Expeditions pairing: every colour orders each turn (one decision a turn: with
    `--budget turn` the search spends the table's whole turn budget on it), then the turn resolves."""
    colours = list(COLOURS[: pairing.players])
    hero = colours[index % pairing.players]
    game = Expeditions.new(colours, seed=1_000_000 + index)
    thinking_budget = turn_budget(0.0) if budget == TURN else budget
    bots = {c: expeditions_bot(pairing.hero if c == hero else pairing.foe, seed=index * 10 + i,
                               budget=thinking_budget) for i, c in enumerate(colours)}
    times: list[float] = []
    iterations, thinking = 0, 0.0
    while game.over is None:
        for colour in colours:
            bot = bots[colour]
            began = time.perf_counter()
            order = bot.choose(game, colour)
            if colour == hero:
                times.append(time.perf_counter() - began)
                if isinstance(bot, ExpeditionsSearch) and bot.last is not None:
                    iterations += bot.last.iterations
                    thinking += bot.last.seconds
            game.submit(colour, order)
        game.resolve()
    result = game.result()
    assert result is not None
    win = 1.0 / len(result["winners"]) if hero in result["winners"] else 0.0
    return Outcome(win, tuple(times), iterations, thinking)


def play(job: tuple[Pairing, int, str]) -> Outcome:
    """Play game `index` of `pairing`: the hero sits in seat index mod players, the seed is the index."""
    pairing, index, budget = job
    if pairing.game == "expeditions":
        return play_expeditions(pairing, index, budget)
    colours = list(COLOURS[: pairing.players])
    hero = colours[index % pairing.players]
    game = Game.new(colours, seed=1_000_000 + index)
    per_turn = budget == TURN
    bots = {
        c: make_bot(pairing.hero if c == hero else pairing.foe, seed=index * 10 + i,
                    budget=None if per_turn else budget)
        for i, c in enumerate(colours)
    }
    times: list[float] = []
    iterations = 0
    thinking = 0.0
    mover, turn_began = None, 0.0
    while game.to_move is not None:
        colour = game.to_move
        bot = bots[colour]
        began = time.perf_counter()
        if colour != mover:
            mover, turn_began = colour, began
        if per_turn and isinstance(bot, SearchBot):
            bot.seconds = turn_budget(began - turn_began).seconds
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


def turn_times(index: int) -> dict[str, list[tuple[float, float]]]:
    """Game `index` at a table of one bot of each level (seats rotated by the index), every decision
    through the game mode as a bot worker makes it: each level's whole-turn times (seconds of wall clock
    and of this process's CPU: on a shared machine the wall clock counts the others' work too)."""
    colours = list(COLOURS[: len(LEVELS)])
    levels = {c: LEVELS[(i + index) % len(LEVELS)] for i, c in enumerate(colours)}
    mode = Tongiaki()
    game = Game.new(colours, seed=2_000_000 + index)
    turns: dict[str, list[tuple[float, float]]] = {level: [] for level in LEVELS}
    mover, turn_began, turn_cpu, seed = None, 0.0, 0.0, index * 1000
    while (colour := game.to_move) is not None:
        began, cpu = time.perf_counter(), time.process_time()
        if colour != mover:
            if mover is not None:
                turns[levels[mover]].append((began - turn_began, cpu - turn_cpu))
            mover, turn_began, turn_cpu = colour, began, cpu
        seed += 1
        action = mode.bot_action(game.to_bytes(), colour, levels[colour], seed, began - turn_began)
        game.apply(action, colour)
    if mover is not None:
        turns[levels[mover]].append((time.perf_counter() - turn_began, time.process_time() - turn_cpu))
    return turns


TURN_LIMIT = 2.0
"""Seconds a bot's whole turn may take over the room's bot pace at "normal" speed (every level)."""


def report_turns(games: int, workers: int) -> None:
    """Plays `games` games of `turn_times` and prints each level's whole-turn times."""
    print(f"whole turns over {games} games of {len(LEVELS)} bots, one of each level (search: {TURN_BUDGET:g} s "
          f"a turn, split over its decisions); {workers} worker processes")
    turns: dict[str, list[tuple[float, float]]] = {level: [] for level in LEVELS}
    began = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        for one in pool.imap_unordered(turn_times, range(games)):
            for level, times in one.items():
                turns[level].extend(times)
    # at the table a turn takes the room's bot pace, then this thinking: it must end within pace + 2 s
    print(f"  a turn's thinking against the {TURN_LIMIT:g} s a table allows over its bot pace "
          f"(pace + {TURN_LIMIT:g} s):")
    for level in LEVELS:
        wall, cpu = [t[0] for t in turns[level]], [t[1] for t in turns[level]]
        over = sum(1 for w in wall if w > TURN_LIMIT)
        verdict = "within" if percentile(wall, 99) <= TURN_LIMIT else "OVER"
        print(f"  {level:>7}: {len(wall)} turns; wall p50 {percentile(wall, 50):.3f} s, p99 "
              f"{percentile(wall, 99):.3f} s, max {max(wall, default=0):.3f} s; CPU p50 {percentile(cpu, 50):.3f} s, "
              f"p99 {percentile(cpu, 99):.3f} s, max {max(cpu, default=0):.3f} s; "
              f"p99 {verdict} pace + {TURN_LIMIT:g} s, "
              f"{over} turns over ({100 * over / max(1, len(wall)):.1f} %)")
    print(f"  ({time.perf_counter() - began:.0f} s wall)")


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
    parser.add_argument("--budget", default="1s",
                        help="search budget per decision: '1s' or '500' (iterations); 'turn': the table's per turn")
    parser.add_argument("--compare", action="store_true",
                        help="each pairing with --budget and with 'turn', games interleaved")
    parser.add_argument("--turns", type=int, default=0, metavar="N",
                        help="instead: each level's whole-turn times over N games, as the table's workers think")
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
    print(f"engine compiled: {COMPILED}")
    if args.turns:
        report_turns(args.turns, args.workers)
        return
    budget = TURN if args.budget == TURN else str(Budget.of(args.budget).iterations or
                                                    f"{Budget.of(args.budget).seconds}s")
    budgets = [budget, TURN] if args.compare and budget != TURN else [budget]
    chosen = [p for p in PAIRINGS if not args.pairing or p.name in args.pairing]
    shown = [f"{TURN_BUDGET:g} s per turn" if b == TURN else f"{Budget.of(b)} per decision" for b in budgets]
    print(f"search budget {' against '.join(shown)}; {args.games} games per pairing; {args.workers} worker processes")
    with multiprocessing.Pool(args.workers) as pool:
        for pairing in chosen:
            began = time.perf_counter()
            outcomes: dict[str, list[Outcome]] = {b: [] for b in budgets}
            games = [(pairing, i, b) for i in range(args.first, args.first + args.games) for b in budgets]
            for (_, _, b), outcome in zip(games, pool.imap(play, games, chunksize=1), strict=True):
                outcomes[b].append(outcome)
                done = len(outcomes[b])
                if args.every and done % args.every == 0 and done < args.games:
                    print(f"  so far ({b}): " + report(pairing, outcomes[b], time.perf_counter() - began), flush=True)
            for b in budgets:
                print((f"[{b}] " if len(budgets) > 1 else "") + report(pairing, outcomes[b],
                                                                       time.perf_counter() - began), flush=True)


if __name__ == "__main__":
    main()
