"""What holding games as live engine objects buys (server/lobby/authority.py Held): the server's work per
action over whole random games, `python -m bench.held [--games 6]`, rebuilding the game from its stored
bytes for every action (as before) against playing on the held object. Both sides do what the authority
does per action: apply, the public view, the diff against the previous view, the bytes to store.
Interleaved game by game; prints per-action p50/p99, the whole game's time, and the actions over 10 ms."""

from __future__ import annotations

import argparse
import statistics
import time

from server.game import Game
from server.game.bots import RandomBot
from server.lobby.tongiaki import Tongiaki
from server.patch import diff

GAMES = [(["red", "blue", "green"], {"free_follow_up": True}, 3175),   # a slow game: long R9 searches
         (["red", "blue", "green", "yellow", "orange", "purple"], {}, 4059)]


def actions_of(colours: list[str], variants: dict[str, bool], seed: int) -> list[tuple[str, dict]]:
    game, bot = Game.new(colours, seed=seed, variants=variants), RandomBot(seed)
    out = []
    while game.to_move is not None:
        colour, action = game.to_move, bot.choose(game)
        out.append((colour, action))
        game.apply(action, colour=colour)
    return out


def play(colours: list[str], variants: dict[str, bool], seed: int, moves: list[tuple[str, dict]],
         held: bool) -> list[float]:
    mode = Tongiaki()
    live = mode.load(Game.new(colours, seed=seed, variants=variants).to_bytes())
    state, before = live.to_bytes(), live.public_view()
    times = []
    for colour, action in moves:
        began = time.perf_counter()
        game = live if held else mode.load(state)
        game.apply(action, colour)
        after = game.public_view()
        diff(before, after)
        state = game.to_bytes()
        times.append(time.perf_counter() - began)
        live, before = game, after
    return times


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.held", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="random games besides the two named ones")
    args = parser.parse_args()
    games = GAMES + [(["red", "blue", "green", "yellow"], {}, s) for s in range(args.games)]
    totals: dict[bool, list[float]] = {False: [], True: []}
    for colours, variants, seed in games:
        moves = actions_of(colours, variants, seed)
        row = []
        for held in (False, True):   # interleaved, game by game
            times = play(colours, variants, seed, moves, held)
            totals[held] += times
            row.append(f"{'held' if held else 'rebuilt'} {sum(times):6.2f} s")
        print(f"{len(colours)} colours, seed {seed:5d}, {len(moves):4d} actions: " + ", ".join(row))
    for held in (False, True):
        t = sorted(totals[held])
        print(f"{'held   ' if held else 'rebuilt'}  per action p50 {1000 * statistics.median(t):.2f} ms, "
              f"p99 {1000 * t[int(0.99 * (len(t) - 1))]:.2f} ms, max {1000 * t[-1]:.0f} ms, "
              f"{sum(1 for x in t if x > 0.01)} actions over 10 ms, {sum(t):.1f} s in all")


if __name__ == "__main__":
    main()
