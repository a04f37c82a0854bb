"""The game: state, decisions, and the rules R3–R14 that move it on.

`Game` owns one table. Every public call takes and returns plain data (see docs/engine.md). The only
randomness is the stack, shuffled once from the seed at set-up (R3) and drawn from the top; nothing that
leaves through a view, an event or an error reveals its order (R15).
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Any

import msgpack  # type: ignore[import-untyped]

from . import arrangements, landing
from .arrangements import COUNT, KINDS, Arrangement
from .catalogue import COLOURS, STACK_TILES, TILES, TONGA, Island, Ocean
from .errors import IllegalAction
from .geometry import NOWHERE, SIDES, START, Cell, forced_rotation, neighbour, neighbours, opposite, world_side
from .landing import island_landings
from .views import public_view, tile_view

BOATS = 15
"""Boats of each colour (R1)."""
MAX_ROYAL = 2
"""Royal islands a colour may found (R10)."""
VARIANTS = ("two_colours", "free_follow_up")
"""Room settings of R14."""

Action = dict[str, Any]
Event = dict[str, Any]
Key = tuple[Any, ...]


class Placed:
    """A tile on the table: which tile, where, how turned, and for islands the boats on its beaches."""

    __slots__ = (
        "name",
        "cell",
        "rotation",
        "island",
        "exits",
        "piers",
        "beaches",
        "royal",
        "moorings",
        "_codes",
        "_counts",
        "_free",
        "_full",
        "_open",
    )

    def __init__(self, name: str, cell: Cell, rotation: int) -> None:
        tile = TILES[name]
        self.name = name
        self.cell = cell
        self.rotation = rotation
        self.royal: str | None = None
        self._codes: tuple[int, ...] | None = None
        self._free: tuple[int, ...] | None = None
        self._full: tuple[int, ...] | None = None
        self._open: tuple[int, ...] | None = None
        self._counts: dict[str, int] | None = None
        shape = _SHAPES.get((name, rotation))
        if shape is None:
            shape = _SHAPES[(name, rotation)] = _shape(name, rotation)
        self.piers, self.moorings, self.exits = shape  # shared by every tile so turned: never changed
        if isinstance(tile, Island):
            self.island: Island | None = tile
            self.beaches: list[list[str]] = [[] for _ in tile.beaches]
        else:
            self.island = None
            self.beaches = []

    def full(self, beach: int) -> bool:
        """R6: every mooring of the beach holds a boat."""
        return len(self.beaches[beach]) == self.moorings[beach]

    def codes(self) -> tuple[int, ...]:
        """The boats on each beach as codes: this island's part of an arrangement (R9). Cached; every
        change to `beaches` calls `changed()`."""
        if self._codes is None:
            self._codes = tuple([arrangements.code(b) for b in self.beaches])
        return self._codes

    def counts(self) -> dict[str, int]:
        """Boats on the island's beaches by colour (cached like `codes`)."""
        if self._counts is None:
            counts: dict[str, int] = {}
            for boats in self.beaches:
                for c in boats:
                    counts[c] = counts.get(c, 0) + 1
            self._counts = counts
        return self._counts

    def changed(self) -> None:
        self._codes = None
        self._counts = None
        self._free = None
        self._full = None
        self._open = None

    def free(self) -> tuple[int, ...]:
        """Free moorings per beach (cached like `codes`)."""
        if self._free is None:
            self._free = tuple([m - len(self.beaches[b]) for b, m in enumerate(self.moorings)])
        return self._free

    def full_beaches(self) -> tuple[int, ...]:
        """The beaches that are full (R6), in order (cached like `codes`)."""
        if self._full is None:
            self._full = tuple([b for b, free in enumerate(self.free()) if free == 0])
        return self._full

    def open_beaches(self) -> tuple[int, ...]:
        """The beaches with a free mooring, in order (cached like `codes`)."""
        if self._open is None:
            self._open = tuple([b for b, free in enumerate(self.free()) if free > 0])
        return self._open


Shape = tuple[list[list[int]], tuple[int, ...], list[tuple[int, int]]]


def _shape(name: str, rotation: int) -> Shape:
    """A tile turned by `rotation`, in world directions: each beach's piers and moorings (islands), and
    for oceans exits[entry direction] = (exit direction, danger)."""
    tile = TILES[name]
    if isinstance(tile, Island):
        return (
            [[world_side(s, rotation) for s in b.piers] for b in tile.beaches],
            tuple(b.moorings for b in tile.beaches),
            [],
        )
    exits = [(0, 0)] * SIDES
    for a, b, danger in tile.paths:
        wa, wb = world_side(a, rotation), world_side(b, rotation)
        exits[wa] = (wb, danger)
        exits[wb] = (wa, danger)
    return [], (), exits


_SHAPES: dict[tuple[str, int], Shape] = {}


class Fleet:
    """A fleet at sea (R6, R7): its boats, the island it set out from, the cell it is on and the direction
    it sails out of, the tiles it drew, the cell ahead and, once known, the island it will land on."""

    __slots__ = ("boats", "colours", "origin", "at", "heading", "drawn", "next", "target")

    def __init__(
        self, boats: list[str], colours: int, origin: Cell, heading: int, at: Cell | None = None, drawn: int = 0
    ) -> None:
        self.boats = boats
        self.colours = colours
        self.origin = origin
        self.at = origin if at is None else at
        self.heading = heading
        self.drawn = drawn
        self.next: Cell = NOWHERE  # known once it sails into it
        self.target: Cell = NOWHERE  # known once it reaches an island


class _Topology:
    """The non-royal islands on the table, their beaches numbered globally, for chain searches (R9).

    An arrangement is a tuple of the boats on each such beach (codes, see arrangements.py), in this
    numbering.
    """

    __slots__ = ("index", "moorings", "piers", "of_cell", "span", "cells", "islands", "moves")

    def __init__(self, tiles: Iterable[Placed]) -> None:
        self.index: list[tuple[Cell, int]] = []
        self.moorings: list[int] = []
        self.piers: list[list[int]] = []
        self.of_cell: dict[Cell, list[int]] = {}
        # an island's beaches are numbered in a row: first, end and their moorings
        self.span: dict[Cell, tuple[int, int, tuple[int, ...]]] = {}
        self.cells: list[Cell] = []
        self.islands: list[Placed] = []  # the tiles of `cells`
        # per beach, (danger, island reached) for each pier: filled by Game._moves, valid for one table
        self.moves: list[list[tuple[int, Cell | None]] | None] = []
        for t in tiles:  # in the order they were placed, which to_bytes keeps
            self.add(t)

    def add(self, t: Placed) -> None:
        """Number the beaches of a newly placed tile, if it is a non-royal island."""
        if t.island is None or t.royal is not None:
            return
        ids = []
        for b, beach in enumerate(t.island.beaches):
            ids.append(len(self.index))
            self.index.append((t.cell, b))
            self.moorings.append(beach.moorings)
            self.piers.append(t.piers[b])
            self.moves.append(None)
        self.of_cell[t.cell] = ids
        self.span[t.cell] = (ids[0], ids[-1] + 1, t.moorings)
        self.cells.append(t.cell)
        self.islands.append(t)

    def arrangement(self) -> Arrangement:
        """The boats on the table now, in this numbering."""
        out: list[int] = []
        for t in self.islands:
            out.extend(t.codes())
        return tuple(out)


class _Network:
    """The islands a chain can still reach from some arrangement (R9): those with a full beach and those
    their fleets can land on, directly or after further landings. Nothing outside them can change or
    fill while the chain runs, so a search works on their beaches alone (numbered by `topology`; `ids`
    gives each one's number on the whole table) and its verdicts hold for any table that differs only
    outside them."""

    __slots__ = ("topology", "ids", "blind", "memo", "homing", "risky")

    def __init__(self, topology: _Topology, ids: list[int], blind: tuple[bool, ...] | None) -> None:
        self.topology = topology
        self.ids = ids
        self.blind = blind
        self.memo: dict[Arrangement, tuple[Arrangement, ...] | None] = {}  # see Game._way_out
        # see Game._frozen: the islands every fleet of which comes back to them, with their beaches and
        # the worst danger on the way from each; and the beaches a fleet of which may draw or sink
        self.homing: list[tuple[list[int], list[int]]] | None = None
        self.risky: list[int] = []


class Game:
    """One table of Tongiaki. See docs/engine.md for the contract."""

    def __init__(self) -> None:
        # Use Game.new / from_position / from_bytes.
        self.colours: list[str] = []
        self.variants: dict[str, bool] = {v: False for v in VARIANTS}
        self.seed = 0
        self.stack: list[str] = []  # the top of the stack is the END of the list
        self.tiles: dict[Cell, Placed] = {}
        self.where: dict[str, Cell] = {}
        self.supply: dict[str, int] = {}
        self.royal_founded: dict[str, int] = {}
        self.removed: list[str] = []
        self.at_sea: list[tuple[Cell, list[str]]] = []
        self.active = 0
        self.first = 0
        self.turn = 0
        self.phase = "setup"
        self.setup_left = 0
        self.fleet: Fleet | None = None
        self.in_hand: str | None = None
        self.hand_reason: str | None = None
        self.colonist_island: Cell | None = None
        self.chain_seen: set[Arrangement] = set()
        self.ending = False
        self.final: dict[str, Any] | None = None
        self.log: list[Action] = []
        # Caches, never serialised: legal actions and per-decision results (cleared by every action),
        # the island topology, voyage traces and free cells (cleared where the table changes).
        self._legal: list[Key] | None = None  # keys: callers get fresh dicts, never the engine's own
        self._issued: Key | None = None  # the last key sample_action checked in this state
        self._issued_action: tuple[Action, Action] | None = None
        self._memo: dict[str, Any] = {}
        self._topology: _Topology | None = None
        self._traces: dict[tuple[Cell, int], tuple[int, Cell | None]] = {}
        self._traces_ending: dict[Cell, list[tuple[Cell, int]]] = {}  # the traces by the cell they end on
        self._free: set[Cell] | None = None
        self._free_sorted: list[Cell] | None = None
        self._stack_islands = -1  # island tiles in the stack, once counted (only _draw changes the stack)
        self._island_tiles: list[Placed] | None = None
        # R9 verdicts by arrangement: the path out found (escapes) or None (does not escape). Valid for
        # this table: cleared whenever a tile or a royal island changes it.
        self._escape_memo: dict[Arrangement, tuple[Arrangement, ...] | None] = {}
        # R9 verdicts without the chain's history, by colour-blind arrangement; valid for this table.
        self._networks: dict[tuple[Cell, ...], _Network] = {}  # by their islands
        self._network_of_full: dict[tuple[Cell, ...], _Network] = {}  # by the islands with a full beach
        self._sailing_cache: tuple[dict[Cell, set[Cell]], set[Cell]] | None = None
        self._blind: tuple[tuple[bool, ...] | None] | None = None

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        colours: list[str],
        seed: int,
        variants: dict[str, bool] | None = None,
        first: str | None = None,
    ) -> Game:
        """A new game (R3): Tonga placed, the other tiles shuffled once from `seed`, set-up pending."""
        game = cls()
        game._set_colours(colours, variants)
        game.seed = int(seed)
        rng = random.Random(game.seed)
        stack = list(STACK_TILES)
        rng.shuffle(stack)
        game.stack = stack
        if first is None:
            game.first = rng.randrange(len(game.colours))
        elif first in game.colours:
            game.first = game.colours.index(first)
        else:
            raise ValueError(f"first player {first!r} is not one of {game.colours}")
        game._put(TONGA, START, 0)
        game.supply = {c: BOATS for c in game.colours}
        game.royal_founded = {c: 0 for c in game.colours}
        game.active = game.first
        game.phase = "setup"
        game.setup_left = 2 * len(game.colours)
        return game

    def _set_colours(self, colours: list[str], variants: dict[str, bool] | None) -> None:
        colours = list(colours)
        if not 2 <= len(colours) <= 6 or len(set(colours)) != len(colours) or not set(colours) <= set(COLOURS):
            raise ValueError(f"colours must be 2 to 6 distinct colours of {COLOURS}, got {colours!r}")
        self.colours = colours
        self.variants = {v: False for v in VARIANTS}
        for name, on in (variants or {}).items():
            if name not in VARIANTS:
                raise ValueError(f"unknown variant {name!r}; known: {VARIANTS}")
            self.variants[name] = bool(on)
        if self.variants["two_colours"] and len(colours) != 4:
            raise ValueError("the two-colours variant (R14) takes four colours: A1, B1, A2, B2")

    @classmethod
    def replay(
        cls,
        colours: list[str],
        seed: int,
        actions: list[Action],
        variants: dict[str, bool] | None = None,
        first: str | None = None,
    ) -> Game:
        """Rebuild a game from its seed and action log."""
        game = cls.new(colours, seed, variants=variants, first=first)
        for action in actions:
            game.apply(action)
        return game

    # ------------------------------------------------------------------ public queries

    @property
    def to_move(self) -> str | None:
        """Colour whose decision is pending, or None when the game is over."""
        return None if self.phase == "over" else self.colours[self.active]

    @property
    def version(self) -> int:
        """Number of actions applied so far."""
        return len(self.log)

    @property
    def decision(self) -> dict[str, Any] | None:
        """The pending decision: who decides what, with what a client needs to present it."""
        if self.phase == "over":
            return None
        colour = self.colours[self.active]
        d: dict[str, Any] = {"colour": colour, "kind": self.phase}
        if self.phase in ("turn", "restart"):
            d["supply"] = self.supply[colour]
        elif self.phase == "migrate":
            d["full"] = [
                {"island": t.name, "beach": b} for t in self._islands() if t.royal is None for b in t.full_beaches()
            ]
        elif self.phase == "land":
            assert self.fleet is not None
            target = self.tiles[self.fleet.target]
            d["island"] = target.name
            d["fleet"] = list(self.fleet.boats)
            d["free"] = list(target.free())
        elif self.phase == "place_tile":
            d["tile"] = self.in_hand
            d["reason"] = self.hand_reason
        elif self.phase == "turn_tile":
            assert self.fleet is not None
            d["tile"] = self.in_hand
            d["cell"] = list(self.fleet.next)
        elif self.phase == "settle":
            assert self.colonist_island is not None
            d["island"] = self.tiles[self.colonist_island].name
        return d

    def legal_actions(self) -> list[Action]:
        """The complete list of legal actions for the pending decision (empty when the game is over)."""
        if self.phase == "over":
            return []
        if self._legal is None:
            if self.phase in _FILTERED:
                self._legal = [k for k in self._candidates() if self._allowed(k)]
            else:  # candidates are legal by construction
                self._legal = self._candidates()
        return [_action(k) for k in self._legal]

    def sample_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly at random without listing them all (for bots and playouts):
        a uniform draw among the candidates, redrawn while it is one the R9 filter forbids."""
        if self.phase == "over":
            raise IllegalAction("game_over", "the game is over: there is nothing to choose")
        if self._legal is not None:
            return self._issue(self._legal[_below(rng, len(self._legal))])
        if self.phase == "land":
            return self._sample_landing(rng)
        if self.phase == "turn":
            return self._sample_turn(rng)
        if self.phase == "restart":
            return self._sample_restart(rng)
        if self.phase == "place_tile":  # every free cell and rotation is legal
            cells = self._free_cells()
            cell = cells[_below(rng, len(cells))]
            return self._issue(("place_tile", cell[0], cell[1], _below(rng, SIDES)))
        keys = self._candidates()
        if self.phase not in _FILTERED:
            return self._issue(keys[_below(rng, len(keys))])
        while keys:
            i = _below(rng, len(keys))
            if self._allowed(keys[i]):
                return self._issue(keys[i])
            keys[i] = keys[-1]
            keys.pop()
        raise AssertionError(f"no legal action in phase {self.phase}")  # pragma: no cover

    def _issue(self, key: Key) -> Action:
        """Hand out a sampled legal action, remembering it: applying it unchanged skips re-validation."""
        self._issued = key
        action = _action(key)
        self._issued_action = (action, _action(key))  # what was handed out, and a copy to see it unchanged
        return action

    def result(self) -> dict[str, Any] | None:
        """The final scores and ranking (R13), or None while the game runs."""
        return _copy_result(self.final)

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Any, colour: str | None = None) -> list[Event]:
        """Apply one action of the pending colour; return the events it caused, in order.

        Raises IllegalAction, changing nothing, when the action is malformed, out of phase or not legal.
        When `colour` is given it must be the colour to move.
        """
        if self.phase == "over":
            raise IllegalAction("game_over", f"the game is over; {_show(action)} was not applied", action)
        if colour is not None and colour != self.colours[self.active]:
            raise IllegalAction(
                "wrong_player", f"{colour!r} may not act: the decision is {self.colours[self.active]}'s", action
            )
        issued = self._issued_action
        chosen: Action | None = None
        if issued is not None and action is issued[0] and action == issued[1] and self._issued is not None:
            key = self._issued  # the action sample_action handed out, unchanged: legal and well formed
            chosen = issued[1]  # its copy, which nobody else holds, goes in the log
        else:
            key = _key(action)
        if key[0] not in _ANSWERS[self.phase]:
            raise IllegalAction(
                "wrong_phase",
                f"{_show(action)} does not answer the pending {self.phase} decision of {self.colours[self.active]}",
                action,
            )
        if key != self._issued and not (self._legal is not None and key in self._legal) and not self._allowed(key):
            raise IllegalAction(
                "illegal_choice",
                f"{_show(action)} is not a legal action for {self.colours[self.active]} ({self.phase})",
                action,
            )
        if chosen is None:
            chosen = _action(key)
        events: list[Event] = []
        self.log.append(chosen)
        self._do(chosen, events)
        self._advance(events)
        return events

    def _sole(self) -> tuple[int, Key | None]:
        """How many legal actions the pending decision has, counting no further than two, and the first."""
        if self.phase == "land":
            return self._sole_landing()
        # The candidates that are legal whatever R9 says go first: two of them answer without a search.
        surely: list[Key] = []
        maybe: list[Key] = []
        for key in self._candidates():
            (surely if self._surely_allowed(key) else maybe).append(key)
        if len(surely) >= 2:
            return 2, None
        n = len(surely)
        first = surely[0] if surely else None
        for key in maybe:
            if self._allowed(key):
                n += 1
                if n == 2:
                    break
                first = key
        return n, first

    def _surely_allowed(self, key: Key) -> bool:
        """A cheap sufficient test of `_allowed` for a candidate: a migration that draws a tile or sinks
        ends the chain whatever follows (R9)."""
        if key[0] != "migrate":
            return False
        t = self.tiles[self.where[key[1]]]
        danger, target = self._trace(t.cell, key[3])
        return target is None or danger > KINDS[t.codes()[key[2]]]

    def _sole_landing(self) -> tuple[int, Key | None]:
        # Straight over the placements: legal are those that escape (R9), or all when none does.
        free, options = self._landings()
        if len(options) == 1 or self.ending:
            return min(len(options), 2), _landing_key(options[0])
        # Landings that leave no beach full end the chain at once (R9): two of them answer without a search.
        if not self._full_now():
            quiet = 0
            for p in options:
                if not _fills(p, free):
                    quiet += 1
                    if quiet == 2:
                        self._memo["any_landing"] = True
                        return 2, None
        escaping = []
        for placement in options:
            if self._landing_escapes(placement):
                escaping.append(placement)
                if len(escaping) == 2:
                    self._memo["any_landing"] = True
                    return 2, None
        if len(escaping) == 1:
            self._memo["any_landing"] = True
            return 1, _landing_key(escaping[0])
        self._memo["any_landing"] = False
        return 2, None

    def _landings(self) -> tuple[tuple[int, ...], tuple[landing.Landing, ...]]:
        """The free moorings of the arrived fleet's island, and every landing of the fleet there (R8)."""
        fleet = self.fleet
        assert fleet is not None
        free = self.tiles[fleet.target].free()
        return free, landing.landings(free, arrangements.code(fleet.boats))

    def _sample_landing(self, rng: random.Random) -> Action:
        options = self._landings()[1]
        i = _below(rng, len(options))
        if self.ending or not self._any_landing_escapes() or self._landing_escapes(options[i]):
            return self._issue(_landing_key(options[i]))
        left = list(options)  # redraw among the others (the memo above guarantees one escapes)
        while True:
            left[i] = left[-1]
            left.pop()
            i = _below(rng, len(left))
            if self._landing_escapes(left[i]):
                return self._issue(_landing_key(left[i]))

    def _sample_turn(self, rng: random.Random) -> Action:
        """Uniform over the turn's actions (R5 expansions, R10 royal islands, R11) by counting the
        expansions of each island and unranking the chosen one, instead of listing them all."""
        colour = self.colours[self.active]
        supply = self.supply[colour]
        expansions = []
        royals = []
        may_found = self.royal_founded[colour] < MAX_ROYAL
        total = 0
        for t in self._islands():
            if t.royal is not None:
                continue
            counts = t.counts()
            k = counts.get(colour, 0)
            if k:
                open_beaches = t.open_beaches()
                n = _least(k, supply, len(open_beaches))  # open beaches are no more than beaches
                count = _CHOOSE[len(open_beaches)][n]
                total += count
                expansions.append((count, t.name, open_beaches, n))
                if may_found and t.name != TONGA and len(counts) == 1:
                    royals.append(t.name)
        sources: list[tuple[str, int]] = []
        targets: list[tuple[str, int]] = []
        if supply == 0:
            sources, targets = self._take_backs(colour)
            total = sum(len(targets) - (source in targets) for source in sources)
        r = _below(rng, total + len(royals) + 1)  # + 1: colonising
        key: Key = ("colonise",)
        if r < total and supply > 0:
            for count, name, open_beaches, n in expansions:
                if r < count:
                    key = ("expand", name, _unrank_combination(open_beaches, n, r), None)
                    break
                r -= count
        elif r < total:  # R5 with all 15 on the board: which boat is taken back, and where it goes
            for source in sources:
                others = [target for target in targets if target != source]
                if r < len(others):
                    key = ("expand", others[r][0], (others[r][1],), source)
                    break
                r -= len(others)
        elif r - total < len(royals):
            key = ("royal", royals[r - total])
        return self._issue(key)

    def _sample_restart(self, rng: random.Random) -> Action:
        """Uniform over R12's restarts and R11, counted instead of listed (see `_restart_options`)."""
        pairs, others = self._restart_options(self.colours[self.active])
        r = _below(rng, len(pairs) + len(others) + 1)
        if r < len(pairs):
            return self._issue(("restart", "tonga", pairs[r]))
        if r - len(pairs) < len(others):
            name, b = others[r - len(pairs)]
            return self._issue(("restart", name, b))
        return self._issue(("colonise",))

    # ------------------------------------------------------------------ legal actions

    def _candidates(self) -> list[Key]:
        """The keys of every action the pending decision could take, before the R9 filter."""
        out: list[Key] = []
        phase = self.phase
        colour = self.colours[self.active]
        if phase == "setup":
            for b, boats in enumerate(self.tiles[self.where[TONGA]].beaches):
                if len(boats) < 2:  # R3: no Tonga beach filled during set-up
                    out.append(("setup", b))
        elif phase == "turn":
            out.extend(self._expansions(colour))
            if self.royal_founded[colour] < MAX_ROYAL:  # R10
                for t in self._islands():
                    if t.name != TONGA and t.royal is None and t.counts().keys() == {colour}:
                        out.append(("royal", t.name))
            out.append(("colonise",))
        elif phase == "restart":
            out.extend(self._restarts(colour))
            out.append(("colonise",))
        elif phase == "migrate":
            for t in self._islands():
                if t.royal is None:
                    for b in t.full_beaches():
                        for pier in t.piers[b]:
                            out.append(("migrate", t.name, b, pier))
        elif phase == "land":
            for row in self._landings()[1]:
                out.append(_landing_key(row))
        elif phase == "place_tile":
            for cell in self._free_cells():
                for rotation in range(SIDES):
                    out.append(("place_tile", cell[0], cell[1], rotation))
        elif phase == "settle":
            assert self.colonist_island is not None
            for b, free in enumerate(self.tiles[self.colonist_island].free()):
                if free > 0:
                    out.append(("settle", b))
        elif phase == "turn_tile":
            for rotation in range(SIDES):
                out.append(("turn_tile", rotation))
        return out

    def _allowed(self, key: Key) -> bool:
        """Whether the action with this (well-typed) key is legal now. The one place legality lives:
        listing, sampling, validation and the engine's own auto-resolution all ask it."""
        kind = key[0]
        if kind not in _ANSWERS[self.phase]:
            return False
        colour = self.colours[self.active]
        if kind == "setup":
            b = key[1]
            beaches = self.tiles[self.where[TONGA]].beaches
            return 0 <= b < len(beaches) and len(beaches[b]) < 2  # R3: no Tonga beach filled in set-up
        if kind == "expand":
            return self._expansion_allowed(colour, key)
        if kind == "royal":
            t = self._island(key[1])
            return (  # R10
                t is not None
                and t.name != TONGA
                and self.royal_founded[colour] < MAX_ROYAL
                and t.counts().keys() == {colour}
            )
        if kind == "colonise":
            return True
        if kind == "restart":
            return self._restart_allowed(colour, key)
        if kind == "migrate":
            t = self._island(key[1])
            b, pier = key[2], key[3]
            if t is None or not 0 <= b < len(t.beaches) or not t.full(b) or pier not in t.piers[b]:
                return False
            if self._surely_allowed(key):
                return True
            verdicts: dict[Key, bool] = self._memo.setdefault("migrations", {})
            verdict = verdicts.get(key)
            if verdict is None:
                topo, arr, full = self._chain_now()
                verdict = verdicts[key] = self._option_escapes(topo, arr, topo.of_cell[t.cell][b], pier, len(full))
            return verdict
        if kind == "land":
            return self._landing_allowed(key[1])
        if kind == "place_tile":
            return (key[1], key[2]) in self._free_cell_set() and 0 <= key[3] < SIDES
        if kind == "settle":
            assert self.colonist_island is not None
            free = self.tiles[self.colonist_island].free()
            return 0 <= key[1] < len(free) and free[key[1]] > 0
        if kind == "turn_tile":
            return 0 <= key[1] < SIDES and (key[1] in self._good_turnings() or not self._good_turnings())
        return False  # pragma: no cover

    def _island(self, name: str) -> Placed | None:
        """The non-royal island tile of that name on the table, or None."""
        cell = self.where.get(name)
        if cell is None:
            return None
        t = self.tiles[cell]
        return t if t.island is not None and t.royal is None else None

    def _expansions(self, colour: str) -> Iterator[Key]:
        """R5: islands with the colour's boats; n = min(k, beaches, supply) new boats, one per beach; with
        an empty supply, one boat taken back first and placed again."""
        supply = self.supply[colour]
        if supply > 0:
            for t in self._islands():
                if t.royal is not None or colour not in t.counts():
                    continue
                assert t.island is not None
                k = t.counts()[colour]
                open_beaches = t.open_beaches()
                n = min(k, len(t.island.beaches), supply, len(open_beaches))
                for chosen in combinations(open_beaches, n):
                    yield ("expand", t.name, chosen, None)
            return
        sources, targets = self._take_backs(colour)
        for source in sources:
            for name, b in targets:
                if (name, b) != source:
                    yield ("expand", name, (b,), source)

    def _take_backs(self, colour: str) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        """R5 with all 15 boats on the board: the beaches the colour may take a boat back from, and those
        it may put it on (not full; any but the one it came from)."""
        mine = [t for t in self._islands() if t.royal is None and colour in t.counts()]
        sources = [(t.name, b) for t in mine for b, boats in enumerate(t.beaches) if colour in boats]
        targets = [(t.name, b) for t in mine for b, free in enumerate(t.free()) if free > 0]
        return sources, targets

    def _expansion_allowed(self, colour: str, key: Key) -> bool:
        _kind, name, beaches, take_back = key
        t = self._island(name)
        if t is None or colour not in t.counts():
            return False
        supply = self.supply[colour]
        free = t.free()
        if any(not 0 <= b < len(free) or free[b] == 0 for b in beaches) or len(set(beaches)) != len(beaches):
            return False
        if supply > 0:
            k = t.counts()[colour]
            n = min(k, len(free), supply, sum(1 for f in free if f > 0))
            return take_back is None and len(beaches) == n
        if take_back is None or len(beaches) != 1 or (name, beaches[0]) == take_back:
            return False
        source = self._island(take_back[0])
        return source is not None and 0 <= take_back[1] < len(source.beaches) and colour in source.beaches[take_back[1]]

    def _restarts(self, colour: str) -> Iterator[Key]:
        """R12: two boats on free moorings of Tonga, or one on any other non-royal island."""
        pairs, others = self._restart_options(colour)
        for pair in pairs:
            yield ("restart", "tonga", pair)
        for name, b in others:
            yield ("restart", name, b)

    def _restart_options(self, colour: str) -> tuple[list[tuple[int, ...]], list[tuple[str, int]]]:
        """R12's restarts: the beaches of Tonga that take the two boats (or fewer, when the supply or
        Tonga holds fewer), and the free beaches of the other non-royal islands."""
        if self.supply[colour] == 0:
            return [], []
        pairs: list[tuple[int, ...]] = []
        if TONGA in self.where:
            free = self.tiles[self.where[TONGA]].free()
            want = min(2, self.supply[colour], sum(free))
            for pair in combinations_with_replacement(range(len(free)), want):
                if all(pair.count(b) <= free[b] for b in pair):
                    pairs.append(pair)
        others = [
            (t.name, b)
            for t in self._islands()
            if t.name != TONGA and t.royal is None
            for b, f in enumerate(t.free())
            if f > 0
        ]
        return pairs, others

    def _restart_allowed(self, colour: str, key: Key) -> bool:
        supply = self.supply[colour]
        if supply == 0:
            return False
        if key[1] == "tonga":
            if TONGA not in self.where:
                return False
            pair = key[2]
            free = self.tiles[self.where[TONGA]].free()
            want = min(2, supply, sum(free))
            return len(pair) == want and all(0 <= b < len(free) and pair.count(b) <= free[b] for b in pair)
        t = self._island(key[1])
        b = key[2]
        return t is not None and t.name != TONGA and 0 <= b < len(t.beaches) and t.free()[b] > 0

    def _good_turnings(self) -> list[int]:
        """R14 free follow-up tiles: the rotations of the tile in hand that do not lead into an endless
        chain (R9). When none escapes, every rotation is legal and the chain step resolves it."""
        memo = self._memo.get("turnings")
        if memo is not None:
            return memo  # type: ignore[no-any-return]
        assert self.fleet is not None and self.in_hand is not None
        fleet = self.fleet
        cell = fleet.next
        good = []
        for rotation in range(SIDES):
            self._put(self.in_hand, cell, rotation)
            if self._voyage_escapes(fleet.at, fleet.heading, fleet.origin, fleet.boats):
                good.append(rotation)
            self._unput(cell)
        self._memo["turnings"] = good
        return good

    # ------------------------------------------------------------------ doing

    def _do(self, action: Action, events: list[Event], auto: bool = False) -> None:
        self._legal = None
        self._issued = None
        self._issued_action = None
        self._memo.clear()
        kind = action["type"]
        colour = self.colours[self.active]
        if kind == "setup":
            self._add_boats(colour, TONGA, [action["beach"]], "setup", events)
            self.setup_left -= 1
            self.phase = "setup_next"
        elif kind == "expand":
            take_back = action.get("take_back")
            if take_back is not None:
                src = self.tiles[self.where[take_back["island"]]]
                src.beaches[take_back["beach"]].remove(colour)
                src.changed()
                self.supply[colour] += 1
                events.append(
                    {
                        "type": "boat_taken_back",
                        "colour": colour,
                        "island": src.name,
                        "cell": list(src.cell),
                        "beach": take_back["beach"],
                    }
                )
            self._add_boats(colour, action["island"], action["beaches"], "expand", events)
            self.phase = "chain"
        elif kind == "royal":
            self._found_royal(colour, action["island"], events)
            self.phase = "end_turn"
        elif kind == "colonise":
            taken = self._take_all_boats(colour)
            events.append({"type": "colonisation", "colour": colour, "returned": taken})
            self.hand_reason = "colonise"
            self.phase = "draw_free"
        elif kind == "restart":
            if "tonga" in action:
                self._add_boats(colour, TONGA, action["tonga"], "restart", events)
            else:
                self._add_boats(colour, action["island"], [action["beach"]], "restart", events)
            self.phase = "chain"
        elif kind == "migrate":
            self._depart(action, events, auto)
        elif kind == "land":
            self._land(action["boats"], events, auto)
        elif kind == "place_tile":
            assert self.in_hand is not None
            name = self.in_hand
            cell = (action["cell"][0], action["cell"][1])
            self._put(name, cell, action["rotation"])
            self.in_hand = None
            events.append(_placed_event(self.tiles[cell], "free", auto))
            if isinstance(TILES[name], Ocean):
                self.phase = "game_over" if self.ending else "draw_free"
            elif self.hand_reason == "colonise":
                self.colonist_island = cell  # R13: the colonist's boat goes on it even when it is the last
                self.phase = "settle"
            else:
                self.hand_reason = None
                self.phase = "game_over" if self.ending else "end_turn"
        elif kind == "settle":
            assert self.colonist_island is not None
            self._add_boats(colour, self.tiles[self.colonist_island].name, [action["beach"]], "settle", events)
            self.colonist_island = None
            self.hand_reason = None
            self.phase = "game_over" if self.ending else "end_turn"
        elif kind == "turn_tile":
            assert self.fleet is not None and self.in_hand is not None
            cell = self.fleet.next
            self._put(self.in_hand, cell, action["rotation"])
            self.in_hand = None
            events.append(_placed_event(self.tiles[cell], "turned", auto))
            self.phase = "enter"
        else:  # pragma: no cover - _key rejects unknown types
            raise AssertionError(kind)

    def _advance(self, events: list[Event]) -> None:
        """Run the automatic steps until a colour must decide or the game is over."""
        while True:
            phase = self.phase
            if phase == "setup_next":
                if self.setup_left == 0:
                    self._pass_turn(events, to=self.first)
                else:
                    n = len(self.colours)
                    placed = 2 * n - self.setup_left
                    self.active = (self.first + placed) % n
                    self.phase = "setup"
            elif phase == "chain":
                self._chain_step(events)
            elif phase == "sail":
                self._sail(events)
            elif phase == "enter":
                self._enter(events)
            elif phase == "arrive":
                self._arrive(events)
            elif phase == "draw_free":
                self._draw_free(events)
            elif phase == "end_turn":
                self._pass_turn(events, to=(self.active + 1) % len(self.colours))
            elif phase == "game_over":
                self._finish(events)
            else:
                return

    def _pass_turn(self, events: list[Event], to: int) -> None:
        previous = self.colours[self.active]
        self.active = to
        self.turn += 1
        self.chain_seen.clear()
        self._forget_failures()
        colour = self.colours[to]
        events.append({"type": "turn_passed", "from": previous, "to": colour, "turn": self.turn})
        on_board = any(colour in t.counts() for t in self._islands())
        self.phase = "turn" if on_board else "restart"  # R12: no boat on the board

    # ------------------------------------------------------------------ boats

    def _add_boats(self, colour: str, island: str, beaches: list[int], reason: str, events: list[Event]) -> None:
        t = self.tiles[self.where[island]]
        for b in beaches:
            t.beaches[b].append(colour)
        t.changed()
        self.supply[colour] -= len(beaches)
        events.append(
            {
                "type": "boats_placed",
                "colour": colour,
                "island": island,
                "cell": list(t.cell),
                "beaches": list(beaches),
                "reason": reason,
            }
        )

    def _take_all_boats(self, colour: str) -> int:
        """R11: every boat of the colour off the board (royal boats stay)."""
        taken = 0
        for t in self._islands():
            for boats in t.beaches:
                n = boats.count(colour)
                if n:
                    boats[:] = [c for c in boats if c != colour]
                    t.changed()
                    taken += n
        self.supply[colour] += taken
        return taken

    def _return(self, boats: list[str]) -> None:
        for c in boats:
            self.supply[c] += 1

    def _found_royal(self, colour: str, island: str, events: list[Event]) -> None:
        t = self.tiles[self.where[island]]
        boats = sum(len(b) for b in t.beaches)
        for b in t.beaches:
            b.clear()
        t.changed()
        t.royal = colour
        self.supply[colour] += boats - 1  # one stands on the mask
        self.royal_founded[colour] += 1
        self._topology = None
        self._table_changed()
        self._forget_traces(t.cell)  # fleets reaching it are turned back now (R10)
        events.append(
            {"type": "royal_founded", "colour": colour, "island": island, "cell": list(t.cell), "returned": boats - 1}
        )

    # ------------------------------------------------------------------ tiles

    def _put(self, name: str, cell: Cell, rotation: int) -> None:
        t = Placed(name, cell, rotation)
        self.tiles[cell] = t
        self.where[name] = cell
        if self._free is not None:  # the frontier moves out past the new tile
            self._free.discard(cell)
            added = [n for n in neighbours(cell) if n not in self.tiles and n not in self._free]
            self._free.update(added)
            if self._free_sorted is not None:
                at = bisect_left(self._free_sorted, cell)
                if at < len(self._free_sorted) and self._free_sorted[at] == cell:
                    del self._free_sorted[at]
                for n in added:
                    insort(self._free_sorted, n)
        else:
            self._free_sorted = None
        # only the voyages that ended on this empty cell change, and the R9 verdicts of their islands
        self._table_changed(self._forget_traces(cell))
        if t.island is not None:
            self._island_tiles = None
            if self._topology is not None:
                self._topology.add(t)

    def _forget_traces(self, cell: Cell) -> set[Cell]:
        """Forget the voyages that ended on `cell`; the cells they set out from."""
        starts = set()
        traces = self._traces
        for key in self._traces_ending.pop(cell, ()):
            if key in traces:
                del traces[key]
            starts.add(key[0])
        return starts

    def _unput(self, cell: Cell) -> None:
        del self.where[self.tiles.pop(cell).name]
        self._island_tiles = None
        self._free = None
        self._free_sorted = None
        self._table_changed()
        self._topology = None
        self._traces.clear()
        self._traces_ending.clear()

    def _draw(self, events: list[Event]) -> str:
        """Take the top tile of the stack (R7, R11); mark the end of the game when it was the last of its
        kind (R13). A draw ends any repetition bookkeeping of the chain (R9)."""
        if self._stack_islands < 0:
            self._stack_islands = sum(1 for n in self.stack if isinstance(TILES[n], Island))
        name = self.stack.pop()
        tile = TILES[name]
        is_island = isinstance(tile, Island)
        if is_island:
            self._stack_islands -= 1
        islands_left = self._stack_islands
        oceans_left = len(self.stack) - islands_left
        if (islands_left if is_island else oceans_left) == 0:
            self.ending = True
        event: Event = {"type": "tile_drawn", "tile": name, "kind": "island" if is_island else "ocean"}
        if isinstance(tile, Island):
            event["value"] = tile.value
        event["left"] = {"islands": islands_left, "oceans": oceans_left}
        events.append(event)
        self.chain_seen.clear()
        self._forget_failures()
        return name

    def _free_cells(self) -> list[Cell]:
        """Empty cells next to a placed tile (free placement, R9/R11); the centre if the table is empty."""
        if self._free_sorted is None:
            self._free_sorted = sorted(self._free_cell_set())
        return self._free_sorted

    def _free_cell_set(self) -> set[Cell]:
        if self._free is None:
            if not self.tiles:
                self._free = {START}
            else:
                self._free = {n for cell in self.tiles for n in neighbours(cell) if n not in self.tiles}
        return self._free

    def _draw_free(self, events: list[Event]) -> None:
        """R9 redraw / R11 colonisation: draw the next tile; the colour places it freely."""
        self.in_hand = self._draw(events)
        self.phase = "place_tile"

    def _islands(self) -> list[Placed]:
        """The island tiles on the table (cached until an island is placed or removed)."""
        if self._island_tiles is None:
            self._island_tiles = [t for t in self.tiles.values() if t.island is not None]
        return self._island_tiles

    # ------------------------------------------------------------------ chain reaction (R6, R9)

    def _chain_step(self, events: list[Event]) -> None:
        if self.ending:
            self.phase = "game_over"
            return
        if not self._any_full():
            self.phase = "end_turn"
            return
        _topo, arr, _full = self._chain_now()
        self.chain_seen.add(arr)
        self.phase = "migrate"
        n, first = self._sole()
        if n == 0:
            self._endless(arr, events)
        elif n == 1:
            assert first is not None
            self._do(_action(first), events, auto=True)

    def _any_full(self) -> bool:
        """R6: some beach on the table is full."""
        return any(t.full_beaches() for t in self._islands())

    def _chain_now(self) -> tuple[_Topology, Arrangement, list[int]]:
        """The topology, the current arrangement and its full beaches (memoised for this decision)."""
        memo = self._memo.get("chain")
        if memo is None:
            topo = self._topo()
            arr = topo.arrangement()
            memo = (topo, arr, _full_beaches(topo, arr))
            self._memo["chain"] = memo
        return memo  # type: ignore[no-any-return,unused-ignore]

    def _option_escapes(self, topo: _Topology, arr: Arrangement, i: int, pier: int, full: int) -> bool:
        """R9: can the chain still end after the fleet of beach `i` sails out of `pier`? `full` is the
        number of full beaches in `arr`."""
        fleet = arr[i]
        danger, target = self._trace(topo.index[i][0], pier)
        if target is None or danger > KINDS[fleet]:
            return True  # it draws a tile or sinks
        left = arr[:i] + (0,) + arr[i + 1 :]
        first, end, moorings = topo.span[target]
        beaches = left[first:end]
        free = landing.free_moorings(beaches, moorings)
        if full == 1 and landing.can_avoid_filling(free, (fleet & COUNT)):
            return True
        # every landing fills a beach now (or another stays full): each must be searched, and most
        # often the first escapes, so the arrangements are made one at a time
        head, tail = left[:first], left[end:]
        for added in landing.landings(free, fleet):
            if self._escapes(topo, head + landing.landed(beaches, added) + tail):
                return True
        return False

    def _landing_results(self, topo: _Topology, arr: Arrangement, target: Cell, fleet: int) -> list[Arrangement]:
        """The arrangements after each landing (R8) of the fleet `fleet` (a code) on the island at `target`."""
        first, end, moorings = topo.span[target]
        head, tail = arr[:first], arr[end:]
        return [head + beaches + tail for beaches in island_landings(arr[first:end], moorings, fleet)]

    def _quick_escape(self, topo: _Topology, arr: Arrangement, full: list[int] | None = None) -> int:
        """The cheap sufficient tests of R9 escape: a full beach's pier draws a tile or sinks its fleet, or
        the only full beach can land somewhere without filling a beach. Returns 0 when one passes, else
        the number of full beaches (how far the arrangement is from ending the chain). `full`: the full
        beaches of `arr`, when the caller knows them."""
        moorings = topo.moorings
        if full is None:
            full = _full_beaches(topo, arr)
        for i in full:
            colours = KINDS[arr[i]]
            for danger, target in self._moves(topo, i):
                if target is None or danger > colours:
                    return 0
                if len(full) == 1:
                    free = tuple([moorings[j] - (0 if j == i else (arr[j] & COUNT)) for j in topo.of_cell[target]])
                    if landing.can_avoid_filling(free, moorings[i]):
                        return 0
        return len(full)

    def _escapes(self, topo: _Topology, start: Arrangement) -> bool:
        """R9: can the chain from `start` reach a table with no full beach (or a draw, or a sinking)
        without passing through an arrangement it has already seen (`forbidden`, the chain's history)?
        First without the history (`_way_out`); then, when that way passes the history, a depth-first
        search that tries first the arrangements with the fewest full beaches, with the cheap tests applied
        to each arrangement as soon as it is met.

        Verdicts outlive the decision (see `_escape_memo`): a success keeps the path it found and holds
        while no arrangement of that path is forbidden; a failure holds while `forbidden` only grows."""
        forbidden = self.chain_seen
        if start in forbidden:
            return False
        way = self._way_out(topo, start)
        if way is None:
            return False
        if not way or not forbidden:
            return True
        blind = self._colour_blind(topo)
        if (forbidden if blind is None else self._blind_seen(blind)).isdisjoint(way):
            return True  # the way out passes no arrangement the chain has seen, whatever the colours
        known = self._known_escape(start, forbidden)
        if known is not None:
            return known
        if not self._quick_escape(topo, start):
            self._escape_memo[start] = ()
            return True
        hopeless = self._hopeless
        parent: dict[Arrangement, Arrangement | None] = {start: None}
        todo = [start]
        while todo:
            arr = todo.pop()
            found: list[tuple[int, Arrangement]] = []
            for _sailed, _landed, nexts in self._next_arrangements(topo, arr, None):
                for nxt in nexts:
                    if nxt in parent or nxt in forbidden or hopeless(topo, nxt):
                        continue
                    verdict = self._known_escape(nxt, forbidden)
                    if verdict is False:
                        continue
                    distance = 0 if verdict else self._quick_escape(topo, nxt)
                    if distance == 0:
                        witness = (nxt, *(self._escape_memo.get(nxt) or ()))
                        step: Arrangement | None = arr
                        while step is not None:
                            self._escape_memo[step] = witness
                            witness = (step, *witness)
                            step = parent[step]
                        return True
                    parent[nxt] = arr
                    found.append((distance, nxt))
            found.sort(key=lambda pair: -pair[0])  # the fewest full beaches are tried first
            todo.extend(nxt for _distance, nxt in found)
        for arr in parent:
            self._escape_memo[arr] = None
        return False

    def _way_out(self, topo: _Topology, start: Arrangement) -> tuple[Arrangement, ...] | None:
        """R9 without the chain's history: can the chain from `start` end at all? The arrangements of a
        way out after `start` (colour-blind, see `_colour_blind`), or None. When there is none, there is
        none with any history either (forbidding arrangements only takes ways out away), so verdicts hold
        until the table changes. The search runs on the islands the chain can reach (`_network`), so a
        table that differs elsewhere asks it again for nothing."""
        full = _full_beaches(topo, start)
        if not self._quick_escape(topo, start, full):
            return ()
        network = self._network(topo, start, full)
        ids = network.ids
        steps = self._network_way_out(network, _blind_form(tuple([start[j] for j in ids]), network.blind))
        if steps is None:
            return None
        on_table = list(_blind_form(start, self._colour_blind(topo)))
        way = []
        for step in steps:
            for k, j in enumerate(ids):
                on_table[j] = step[k]
            way.append(tuple(on_table))
        return tuple(way)

    def _network_way_out(self, network: _Network, start: Arrangement) -> tuple[Arrangement, ...] | None:
        """`_way_out` on the beaches of `network`: a depth-first search that tries first the arrangements
        with the fewest full beaches; verdicts are kept in `network.memo` (the way out, or None)."""
        topo, blind, memo = network.topology, network.blind, network.memo
        if start in memo:
            return memo[start]
        parent: dict[Arrangement, Arrangement | None] = {start: None}
        todo = [start]
        looked = False  # for a frozen island
        while todo:
            arr = todo.pop()
            if not looked and len(parent) > _LONG_SEARCH:
                looked = True
                if self._frozen(network, start):
                    break  # none of the arrangements met can end the chain either: the island stays so
            found: list[tuple[int, Arrangement]] = []
            for _sailed, _landed, nexts in self._next_arrangements(topo, arr, blind):
                for nxt in nexts:
                    if nxt in parent:
                        continue
                    rest: tuple[Arrangement, ...] = ()
                    if nxt in memo:
                        known = memo[nxt]
                        if known is None:
                            continue
                        rest, distance = known, 0
                    else:
                        distance = self._quick_escape(topo, nxt)
                    if distance == 0:
                        way = (nxt, *rest)
                        memo[nxt] = way[1:]
                        step: Arrangement | None = arr
                        while step is not None:
                            memo[step] = way
                            way = (step, *way)
                            step = parent[step]
                        return memo[start]
                    parent[nxt] = arr
                    found.append((distance, nxt))
            found.sort(key=lambda pair: -pair[0])  # the fewest full beaches are tried first
            todo.extend(nxt for _distance, nxt in found)
        for arr in parent:
            memo[arr] = None
        return None

    def _frozen(self, network: _Network, arr: Arrangement) -> bool:
        """R9: a sure sign that the chain from `arr` (on the network's beaches) can never end, found
        without a search. An island whose beaches are all full, and from whose every beach every pier
        leads back to the island itself with crossings the fleet passes, stays so forever: a fleet that
        leaves finds room only on the beach it left, so it lands there again with the same boats, and
        fleets from elsewhere find no room at all (R8). When no other beach of the network has a pier
        that draws a tile or crosses a danger of 2 or more (a danger that could sink a fleet), nothing
        can end the chain: it is endless, however the other islands play."""
        topo = network.topology
        if network.homing is None:
            network.homing = []
            for cell in topo.cells:
                ids = topo.of_cell[cell]
                worst = []
                home = True
                for i in ids:
                    moves = self._moves(topo, i)
                    home = home and all(target == cell for _danger, target in moves)
                    worst.append(max([danger for danger, _target in moves], default=0))
                    if any(target is None or danger >= 2 for danger, target in moves):
                        network.risky.append(i)
                if home:
                    network.homing.append((ids, worst))
        frozen: set[int] = set()
        moorings = topo.moorings
        for ids, worst in network.homing:
            if all((arr[i] & COUNT) == moorings[i] and worst[k] <= KINDS[arr[i]] for k, i in enumerate(ids)):
                frozen.update(ids)
        return bool(frozen) and all(i in frozen for i in network.risky)

    def _next_arrangements(
        self, topo: _Topology, arr: Arrangement, blind: tuple[bool, ...] | None
    ) -> list[tuple[Cell, Cell, list[Arrangement]]]:
        """Every arrangement one step of the chain (R6–R8: a full beach's fleet sails and lands) leads to
        from `arr`, by the islands sailed from and landed on; on `blind` beaches the boats are counted,
        not told apart. For arrangements where no pier of a full beach draws a tile (`_quick_escape`)."""
        out = []
        for i, boats in enumerate(arr):
            if (boats & COUNT) != topo.moorings[i]:
                continue
            sailed = topo.index[i][0]
            left = arr[:i] + (0,) + arr[i + 1 :]
            for _danger, target in self._moves(topo, i):
                assert target is not None  # a draw ends the chain: no search goes past it
                fleet = arrangements.counted(boats) if blind is not None and blind[topo.of_cell[target][0]] else boats
                out.append((sailed, target, self._landing_results(topo, left, target, fleet)))
        return out

    def _moves(self, topo: _Topology, i: int) -> list[tuple[int, Cell | None]]:
        """(danger, island reached) for each pier of beach `i` of the topology (see `_trace`). Cached until
        the table changes."""
        moves = topo.moves[i]
        if moves is None:
            cell = topo.index[i][0]
            moves = topo.moves[i] = [self._trace(cell, pier) for pier in topo.piers[i]]
        return moves

    def _network(self, topo: _Topology, arr: Arrangement, full_beaches: list[int] | None = None) -> _Network:
        """The islands the chain from `arr` can reach (see `_Network`), cached until the table changes.
        `full_beaches`: those of `arr`, when the caller knows them."""
        if full_beaches is None:
            full_beaches = _full_beaches(topo, arr)
        full = tuple([topo.index[i][0] for i in full_beaches])
        known = self._network_of_full.get(full)  # the islands with a full beach decide the rest
        if known is not None:
            return known
        reached = _reach(full, self._sailing(topo)[0])
        cells = tuple([cell for cell in topo.cells if cell in reached])
        network = self._networks.get(cells)
        if network is None:
            ids = [j for cell in cells for j in topo.of_cell[cell]]
            blind = self._colour_blind(topo)
            local = None if blind is None else tuple([blind[j] for j in ids])
            network = _Network(
                _Topology([self.tiles[cell] for cell in cells]), ids, local if local and any(local) else None
            )
            self._networks[cells] = network
        self._network_of_full[full] = network
        return network

    def _hopeless(self, topo: _Topology, arr: Arrangement) -> bool:
        """Whether `arr` is already known to lead into an endless chain whatever the history."""
        network = self._network(topo, arr)
        local = _blind_form(tuple([arr[j] for j in network.ids]), network.blind)
        return local in network.memo and network.memo[local] is None

    def _sailing(self, topo: _Topology) -> tuple[dict[Cell, set[Cell]], set[Cell]]:
        """The islands each island's fleets can land on, and the islands with a crossing of danger 2 or
        more on the way to an island. Cached until the table changes."""
        if self._sailing_cache is None:
            sails_to: dict[Cell, set[Cell]] = {cell: set() for cell in topo.cells}
            dangerous: set[Cell] = set()
            for i, (cell, _beach) in enumerate(topo.index):
                for danger, target in self._moves(topo, i):
                    if target is not None:
                        sails_to[cell].add(target)
                        if danger >= 2:
                            dangerous.add(cell)
            self._sailing_cache = (sails_to, dangerous)
        return self._sailing_cache

    def _colour_blind(self, topo: _Topology) -> tuple[bool, ...] | None:
        """Per beach: whether the colours of its boats can never matter to R9 (None when none is).

        Colours count only against a danger (R7), and a danger of 1 sinks no fleet: so colours matter
        only on the islands from which a fleet can sail, directly or after further landings, to a
        crossing of danger 2 or more that leads to an island. On every other island only the number of
        boats on each beach matters. Cached until the table changes."""
        if self._blind is None:
            sails_to, dangerous = self._sailing(topo)
            sailed_from: dict[Cell, list[Cell]] = {cell: [] for cell in topo.cells}
            for cell, targets in sails_to.items():
                for target in targets:
                    sailed_from[target].append(cell)
            seeing = _reach(dangerous, sailed_from)  # islands whose colours matter
            blind = tuple([cell not in seeing for cell, _beach in topo.index])
            self._blind = (blind if any(blind) else None,)
        return self._blind[0]

    def _blind_seen(self, blind: tuple[bool, ...]) -> set[Arrangement]:
        """The colour-blind forms of the arrangements this chain has seen (memoised for the decision)."""
        memo: tuple[int, set[Arrangement]] | None = self._memo.get("blind_seen")
        if memo is None or memo[0] != len(self.chain_seen):
            memo = (len(self.chain_seen), {_blind_form(arr, blind) for arr in self.chain_seen})
            self._memo["blind_seen"] = memo
        return memo[1]

    def _known_escape(self, arr: Arrangement, forbidden: set[Arrangement]) -> bool | None:
        """A remembered verdict that still holds, or None."""
        if arr not in self._escape_memo:
            return None
        witness = self._escape_memo[arr]
        if witness is None:
            return False
        if any(step in forbidden for step in witness):
            del self._escape_memo[arr]
            return None
        return True

    def _table_changed(self, voyages_from: set[Cell] | None = None) -> None:
        """A tile or a royal island changed the table: R9 verdicts may change. `voyages_from`, when a
        tile was placed on an empty cell: the cells whose voyages ended there, the only ones that now
        sail elsewhere; a network none of whose islands is among them keeps its moves, its colour-blind
        beaches and so its verdicts (see `_Network`). Otherwise every verdict goes."""
        self._memo.clear()
        self._sailing_cache = None
        self._escape_memo.clear()
        self._blind = None
        topo = self._topology
        if voyages_from is None:
            if topo is not None:
                topo.moves = [None] * len(topo.index)
            self._networks.clear()
            self._network_of_full.clear()
            return
        if not voyages_from:
            return
        if topo is not None:
            for cell in voyages_from:
                for i in topo.of_cell.get(cell, ()):
                    topo.moves[i] = None
        stale = [cells for cells in self._networks if not voyages_from.isdisjoint(cells)]
        if stale:
            for cells in stale:
                del self._networks[cells]
            self._network_of_full = {
                full: network
                for full, network in self._network_of_full.items()
                if voyages_from.isdisjoint(network.topology.cells)
            }

    def _forget_failures(self) -> None:
        """`forbidden` was emptied (a draw, a sinking, a new turn): failures may not hold any more."""
        for arr in [a for a, w in self._escape_memo.items() if w is None]:
            del self._escape_memo[arr]

    def _endless_islands(self, topo: _Topology, start: Arrangement) -> set[Cell]:
        """The islands an endless chain runs on (R9): those whose fleets sail and land in the part of the
        chain it can never leave (its bottom strongly connected components). An island that only feeds
        a fleet into the loop is not one of them."""
        reach = self._network(topo, start).topology.cells
        if len(reach) == 1:
            return set(reach)  # one island within reach: every fleet sails from it and lands on it
        edges: dict[Arrangement, list[tuple[Arrangement, Cell, Cell]]] = {}
        todo = [start]
        edges[start] = []
        while todo:
            arr = todo.pop()
            for sailed, landed, nexts in self._next_arrangements(topo, arr, None):
                for nxt in nexts:
                    edges[arr].append((nxt, sailed, landed))
                    if nxt not in edges:
                        edges[nxt] = []
                        todo.append(nxt)
        component = _components({a: [e[0] for e in out] for a, out in edges.items()})
        leaves = {c for a, out in edges.items() for c in [component[a]] if all(component[e[0]] == c for e in out)}
        cells: set[Cell] = set()
        for arr, out in edges.items():
            if component[arr] in leaves:
                for nxt, departure, target in out:
                    if component[nxt] == component[arr]:
                        cells.update((departure, target))
        return cells

    def _endless(self, arr: Arrangement, events: list[Event]) -> None:
        """R9: every option leads into an endless chain. Its islands go, with their boats."""
        topo = self._topo()
        cells = self._endless_islands(topo, arr)
        names = sorted(self.tiles[c].name for c in cells)
        events.append({"type": "endless_chain", "islands": names})
        for cell in sorted(cells):
            t = self.tiles[cell]
            boats = [c for b in t.beaches for c in b]
            self._return(boats)
            self._unput(cell)
            self.removed.append(t.name)
            events.append({"type": "island_removed", "island": t.name, "cell": list(cell), "returned": boats})
        colour = self.colours[self.active]
        islands = self._islands()
        if not islands or not any(colour in b for t in islands for b in t.beaches):
            self.hand_reason = "redraw"
            self.phase = "draw_free"
        else:
            self.chain_seen.clear()
            self._forget_failures()
            self.phase = "chain"  # beaches that only fed the loop may still be full

    def _topo(self) -> _Topology:
        if self._topology is None:
            self._topology = _Topology(self.tiles.values())
        return self._topology

    def _trace(self, cell: Cell, direction: int) -> tuple[int, Cell | None]:
        """Follow a voyage over the tiles already on the table (R7) from `cell` out through `direction`:
        (highest danger passed, the island it lands on) — None for the island when it reaches an empty
        cell. A royal island turns the fleet back to `cell`. Cached until the table changes there."""
        key = (cell, direction)
        found = self._traces.get(key)
        if found is not None:
            return found
        danger = 0
        at, d = cell, direction
        while True:
            nxt = neighbour(at, d)
            t = self.tiles.get(nxt)
            if t is None or t.island is not None:
                found = (danger, None if t is None else cell if t.royal is not None else nxt)
                self._traces[key] = found
                self._traces_ending.setdefault(nxt, []).append(key)
                return found
            d, path_danger = t.exits[opposite(d)]
            if path_danger > danger:
                danger = path_danger
            at = nxt

    def _voyage_escapes(self, at: Cell, direction: int, origin: Cell, boats: list[str]) -> bool:
        """R9 for a fleet already at sea on `at` heading out through `direction`."""
        topo = self._topo()
        arr = topo.arrangement()
        danger, target = self._trace(at, direction)
        if target is None or danger > len(set(boats)):
            return True
        if target == at:  # turned back by a royal island: the departure island
            target = origin
        return any(
            self._escapes(topo, nxt) for nxt in self._landing_results(topo, arr, target, arrangements.code(boats))
        )

    # ------------------------------------------------------------------ voyage (R6, R7)

    def _depart(self, action: Action, events: list[Event], auto: bool) -> None:
        t = self.tiles[self.where[action["island"]]]
        boats = t.beaches[action["beach"]]
        t.beaches[action["beach"]] = []
        t.changed()
        colours = len(set(boats))
        events.append(
            {
                "type": "fleet_departed",
                "island": t.name,
                "cell": list(t.cell),
                "beach": action["beach"],
                "pier": action["pier"],
                "boats": list(boats),
                "colours": colours,
                "auto": auto,
            }
        )
        self.fleet = Fleet(boats, colours, t.cell, action["pier"])
        self.phase = "sail"

    def _sail(self, events: list[Event]) -> None:
        """Step into the next cell: draw and place a tile there if it is empty (R2 forced placement, or a
        `turn_tile` decision in the free follow-up variant), else enter what is there."""
        fleet = self.fleet
        assert fleet is not None
        nxt = neighbour(fleet.at, fleet.heading)
        fleet.next = nxt
        if nxt not in self.tiles:
            name = self._draw(events)
            fleet.drawn += 1
            if self.variants["free_follow_up"] and fleet.drawn > 1:
                self.in_hand = name
                self.phase = "turn_tile"
                n, first = self._sole()
                if n == 1:
                    assert first is not None
                    self._do(_action(first), events, auto=True)
                return
            self._put(name, nxt, forced_rotation(fleet.heading))
            events.append(_placed_event(self.tiles[nxt], "forced", True))
        self.phase = "enter"

    def _enter(self, events: list[Event]) -> None:
        fleet = self.fleet
        assert fleet is not None
        nxt = fleet.next
        t = self.tiles[nxt]
        if t.island is not None:
            if t.royal is not None:  # R10: turned back to the departure island
                origin = self.tiles[fleet.origin]
                events.append(
                    {"type": "turned_back", "cell": list(nxt), "island": origin.name, "to": list(origin.cell)}
                )
                fleet.target = origin.cell
            else:
                fleet.target = nxt
            self.phase = "arrive"
            return
        if self.ending:
            # R13: the fleet drew the last ocean tile; it stays on it at sea and scores nothing.
            self.at_sea.append((nxt, fleet.boats))
            events.append({"type": "fleet_at_sea", "cell": list(nxt), "boats": list(fleet.boats)})
            self.fleet = None
            self.phase = "game_over"
            return
        entry = opposite(fleet.heading)
        exit_dir, danger = t.exits[entry]
        colours = fleet.colours
        events.append(
            {
                "type": "path_followed",
                "cell": list(nxt),
                "entry": entry,
                "exit": exit_dir,
                "danger": danger,
                "colours": colours,
            }
        )
        passed = danger <= colours
        events.append({"type": "crossing", "cell": list(nxt), "danger": danger, "colours": colours, "passed": passed})
        if not passed:
            self._return(fleet.boats)
            events.append({"type": "sunk", "cell": list(nxt), "boats": list(fleet.boats)})
            self.fleet = None
            self.chain_seen.clear()
            self._forget_failures()
            self.phase = "chain"
            return
        fleet.at = nxt
        fleet.heading = exit_dir
        self.phase = "sail"

    def _arrive(self, events: list[Event]) -> None:
        fleet = self.fleet
        assert fleet is not None
        target = self.tiles[fleet.target]
        events.append(
            {"type": "fleet_arrived", "island": target.name, "cell": list(target.cell), "boats": list(fleet.boats)}
        )
        self.phase = "land"
        n, first = self._sole()
        if n == 1:
            assert first is not None
            self._do(_action(first), events, auto=True)

    def _landing_allowed(self, pairs: tuple[tuple[str, int], ...]) -> bool:
        """R8: `pairs` is one of the fleet's landings; R9: it does not lead into an endless chain or back
        to an arrangement of this chain (unless every landing does)."""
        fleet = self.fleet
        assert fleet is not None
        free = self.tiles[fleet.target].free()
        added = [0] * len(free)
        for colour, b in pairs:
            if not 0 <= b < len(free) or colour not in arrangements.ONE:
                return False
            added[b] += arrangements.ONE[colour]
        placement = tuple(added)
        if placement not in landing.landing_set(free, arrangements.code(fleet.boats)):
            return False
        if self.ending:
            return True  # R13: the game ends with this landing; no chain follows
        return self._landing_escapes(placement) or not self._any_landing_escapes()

    def _landing_escapes(self, placement: landing.Landing) -> bool:
        """R9 for a landing of the arrived fleet (memoised for the decision)."""
        verdicts: dict[landing.Landing, bool] = self._memo.setdefault("landings", {})
        verdict = verdicts.get(placement)
        if verdict is None:
            verdict = verdicts[placement] = self._landing_escapes_now(placement)
        return verdict

    def _landing_escapes_now(self, placement: landing.Landing) -> bool:
        fleet = self.fleet
        assert fleet is not None
        target = self.tiles[fleet.target]
        if not _fills(placement, target.free()) and not self._full_now():
            return True  # nothing is full after it: the chain ends
        topo, arr, _full = self._chain_now()
        ids = topo.of_cell[fleet.target]
        new = list(arr)
        for j, a in zip(ids, placement):  # noqa: B905 - same length
            new[j] += a
        after = tuple(new)
        if after in self.chain_seen:
            return False
        return self._escapes(topo, after)

    def _full_now(self) -> bool:
        memo = self._memo.get("full_now")
        if memo is None:
            memo = self._memo["full_now"] = self._any_full()
        return bool(memo)

    def _any_landing_escapes(self) -> bool:
        memo = self._memo.get("any_landing")
        if memo is None:
            memo = any(self._landing_escapes(p) for p in self._landings()[1])
            self._memo["any_landing"] = memo
        return bool(memo)

    def _land(self, pairs: list[list[Any]], events: list[Event], auto: bool) -> None:
        fleet = self.fleet
        assert fleet is not None
        target = self.tiles[fleet.target]
        left = list(fleet.boats)
        for colour, b in pairs:
            target.beaches[b].append(colour)
            left.remove(colour)
        target.changed()
        self._return(left)
        events.append(
            {
                "type": "landed",
                "island": target.name,
                "cell": list(target.cell),
                "placements": [[c, b] for c, b in pairs],
                "returned": left,
                "auto": auto,
            }
        )
        self.fleet = None
        self.phase = "game_over" if self.ending else "chain"

    # ------------------------------------------------------------------ the end (R13)

    def scores(self) -> dict[str, dict[str, int]]:
        """Per colour: points, islands present on (royal included), boats on the board (royal = 1)."""
        points = {c: 0 for c in self.colours}
        islands = {c: 0 for c in self.colours}
        boats = {c: 0 for c in self.colours}
        for t in self._islands():
            assert t.island is not None
            present = {t.royal} if t.royal is not None else set()
            for b in t.beaches:
                for c in b:
                    boats[c] += 1
                    present.add(c)
            if t.royal is not None:
                boats[t.royal] += 1
            for c in present:
                islands[c] += 1
                points[c] += t.island.value
        for _cell, fleet in self.at_sea:
            for c in fleet:
                boats[c] += 1
        return {"points": points, "islands": islands, "boats": boats}

    def _finish(self, events: list[Event]) -> None:
        s = self.scores()
        points, islands, boats = s["points"], s["islands"], s["boats"]
        ranking, decided = _rank(self.colours, points, islands, boats)
        winners = ranking[0]
        teams = team_ranking = None
        if self.variants["two_colours"]:
            # R14: each person plays two colours (A1, B1, A2, B2); a person's totals decide who wins, with
            # the same tie-breaks (R13) on the summed islands and boats.
            a1, b1, a2, b2 = self.colours
            people = {f"{a1}+{a2}": (a1, a2), f"{b1}+{b2}": (b1, b2)}

            def total(of: dict[str, int]) -> dict[str, int]:
                return {name: of[x] + of[y] for name, (x, y) in people.items()}

            teams = total(points)
            team_ranking, decided = _rank(list(people), teams, total(islands), total(boats))
            winners = [c for name in team_ranking[0] for c in people[name]]
        self.final = {
            "scores": points,
            "islands": islands,
            "boats": boats,
            "ranking": ranking,
            "winners": winners,
            "decided_by": decided,
            "teams": teams,
            "team_ranking": team_ranking,
        }
        self.phase = "over"
        self.fleet = None
        self._legal = []
        events.append({"type": "game_over", "result": _copy_result(self.final)})

    # ------------------------------------------------------------------ views (R15)

    def view(self, colour: str | None = None) -> dict[str, Any]:
        """The public table (R15): the same for every seat and spectator. Never the stack's order."""
        return public_view(self, colour)

    # ------------------------------------------------------------------ persistence

    def to_bytes(self) -> bytes:
        """The whole state, secret stack included, as msgpack (server-side storage only)."""
        data = {
            "colours": self.colours,
            "variants": self.variants,
            "seed": self.seed,
            "stack": self.stack,
            "tiles": [[t.name, t.cell[0], t.cell[1], t.rotation, t.beaches, t.royal] for t in self.tiles.values()],
            "supply": self.supply,
            "royal_founded": self.royal_founded,
            "removed": self.removed,
            "at_sea": [[c[0], c[1], boats] for c, boats in self.at_sea],
            "active": self.active,
            "first": self.first,
            "turn": self.turn,
            "phase": self.phase,
            "setup_left": self.setup_left,
            "fleet": _fleet_out(self.fleet),
            "in_hand": self.in_hand,
            "hand_reason": self.hand_reason,
            "colonist_island": list(self.colonist_island) if self.colonist_island else None,
            "chain_seen": [[list(arrangements.boats(b)) for b in a] for a in sorted(self.chain_seen)],
            "ending": self.ending,
            "final": self.final,
            "log": self.log,
        }
        return bytes(msgpack.packb(data, use_bin_type=True))

    @classmethod
    def from_bytes(cls, blob: bytes) -> Game:
        """Rebuild a game from `to_bytes` output."""
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
        game = cls()
        game.colours = data["colours"]
        game.variants = data["variants"]
        game.seed = data["seed"]
        game.stack = data["stack"]
        for name, q, r, rotation, beaches, royal in data["tiles"]:
            game._put(name, (q, r), rotation)
            t = game.tiles[(q, r)]
            t.beaches = beaches
            t.changed()
            t.royal = royal
        game.supply = data["supply"]
        game.royal_founded = data["royal_founded"]
        game.removed = data["removed"]
        game.at_sea = [((q, r), boats) for q, r, boats in data["at_sea"]]
        game.active = data["active"]
        game.first = data["first"]
        game.turn = data["turn"]
        game.phase = data["phase"]
        game.setup_left = data["setup_left"]
        game.fleet = _fleet_in(data["fleet"])
        game.in_hand = data["in_hand"]
        game.hand_reason = data["hand_reason"]
        colonist = data["colonist_island"]
        game.colonist_island = (colonist[0], colonist[1]) if colonist else None
        game.chain_seen = {tuple([arrangements.code(b) for b in a]) for a in data["chain_seen"]}
        game.ending = data["ending"]
        game.final = data["final"]
        game.log = data["log"]
        return game

    def clone(self) -> Game:
        """An independent copy."""
        return Game.from_bytes(self.to_bytes())

    def imagine(self, seed: int) -> Game:
        """A copy whose unseen stack is reshuffled with `seed`: what a look-ahead bot may use. The real
        order stays secret; counts by kind are kept, so the copy ends the game at the same draw counts."""
        copy = self.clone()
        random.Random(seed).shuffle(copy.stack)
        copy.seed = 0
        return copy

    # ------------------------------------------------------------------ positions

    @classmethod
    def from_position(cls, position: dict[str, Any]) -> Game:
        """Build a position (tests, tutorials). See docs/engine.md, "Building positions"."""
        from .position import build

        return build(cls(), position)


def _placed_event(t: Placed, how: str, auto: bool) -> Event:
    return {
        "type": "tile_placed",
        "tile": t.name,
        "kind": "island" if t.island is not None else "ocean",
        "cell": list(t.cell),
        "rotation": t.rotation,
        "how": how,
        "auto": auto,
        "view": tile_view(t),  # drawn as the view draws it, so a client needs no catalogue of its own
    }


def _fleet_out(fleet: Fleet | None) -> dict[str, Any] | None:
    if fleet is None:
        return None
    data: dict[str, Any] = {
        "boats": fleet.boats,
        "colours": fleet.colours,
        "origin": list(fleet.origin),
        "at": list(fleet.at),
        "dir": fleet.heading,
        "drawn": fleet.drawn,
    }
    if fleet.next != NOWHERE:
        data["next"] = list(fleet.next)
    if fleet.target != NOWHERE:
        data["target"] = list(fleet.target)
    return data


def _fleet_in(data: dict[str, Any] | None) -> Fleet | None:
    if data is None:
        return None

    def cell(name: str) -> Cell:
        value = data.get(name)
        return NOWHERE if value is None else (value[0], value[1])

    fleet = Fleet(data["boats"], data["colours"], cell("origin"), data["dir"], at=cell("at"), drawn=data["drawn"])
    fleet.next, fleet.target = cell("next"), cell("target")
    return fleet


# Decisions whose candidates the R9 filter may forbid; the others' candidates are all legal.
_FILTERED = ("migrate", "land", "turn_tile")

_LONG_SEARCH = 64
"""Arrangements an R9 search meets before it looks for a frozen island (Game._frozen), which ends most
long searches at once but costs more than most short ones."""

# Which action types answer which decision.
_ANSWERS: dict[str, tuple[str, ...]] = {
    "setup": ("setup",),
    "turn": ("expand", "royal", "colonise"),
    "restart": ("restart", "colonise"),
    "migrate": ("migrate",),
    "land": ("land",),
    "place_tile": ("place_tile",),
    "settle": ("settle",),
    "turn_tile": ("turn_tile",),
}

_FIELDS: dict[str, set[str]] = {
    "setup": {"beach"},
    "expand": {"island", "beaches", "take_back"},
    "royal": {"island"},
    "colonise": set(),
    "restart": {"tonga", "island", "beach"},
    "migrate": {"island", "beach", "pier"},
    "land": {"boats"},
    "place_tile": {"cell", "rotation"},
    "settle": {"beach"},
    "turn_tile": {"rotation"},
}


def _rank(
    entrants: list[str], points: dict[str, int], islands: dict[str, int], boats: dict[str, int]
) -> tuple[list[list[str]], str]:
    """R13 ranking: most points, then most islands present on, then fewest boats on the board; groups of
    equal rank, best first, and which criterion separated the winner (or "shared")."""

    def key(c: str) -> tuple[int, int, int]:
        return (-points[c], -islands[c], boats[c])

    order = sorted(entrants, key=lambda c: (key(c), entrants.index(c)))
    ranking: list[list[str]] = []
    for c in order:
        if ranking and key(ranking[-1][0]) == key(c):
            ranking[-1].append(c)
        else:
            ranking.append([c])
    best = order[0]
    top = [c for c in entrants if points[c] == points[best]]
    if len(top) == 1:
        return ranking, "score"
    top = [c for c in top if islands[c] == islands[best]]
    if len(top) == 1:
        return ranking, "islands"
    top = [c for c in top if boats[c] == boats[best]]
    return ranking, "boats" if len(top) == 1 else "shared"


def _components(graph: dict[Any, list[Any]]) -> dict[Any, int]:
    """Strongly connected components (iterative Tarjan): node -> component number."""
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    component: dict[Any, int] = {}
    stack: list[Any] = []
    on_stack: set[Any] = set()
    counter = 0
    components = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component[member] = components
                        if member == node:
                            break
                    components += 1
    return component


def _reach(starts: Iterable[Cell], edges: Mapping[Cell, Iterable[Cell]]) -> set[Cell]:
    """The cells `starts` lead to by following `edges` (a cell's neighbours in some graph), themselves
    included."""
    reached = set(starts)
    todo = list(reached)
    while todo:
        for cell in edges[todo.pop()]:
            if cell not in reached:
                reached.add(cell)
                todo.append(cell)
    return reached


def _least(a: int, b: int, c: int) -> int:
    """min(a, b, c) without a call to the builtin (a compiled hot path)."""
    least = a if a < b else b
    return least if least < c else c


def _full_beaches(topo: _Topology, arr: Arrangement) -> list[int]:
    """The full beaches of an arrangement (R6), by their numbers in the topology."""
    moorings = topo.moorings
    return [i for i, boats in enumerate(arr) if (boats & COUNT) == moorings[i]]


def _fills(placement: landing.Landing, free: tuple[int, ...]) -> bool:
    """Whether the landing fills a beach (R6)."""
    return any(added and (added & COUNT) == free[b] for b, added in enumerate(placement))


def _blind_form(arr: Arrangement, blind: tuple[bool, ...] | None) -> Arrangement:
    """`arr` with the boats of colour-blind beaches counted, not told apart (as if all were red)."""
    if blind is None:
        return arr
    return tuple([arrangements.counted(boats) if b else boats for boats, b in zip(arr, blind)])  # noqa: B905 - same length


def _below(rng: random.Random, n: int) -> int:
    """rng.randrange(n), the same draw from the same generator, without the interpreted wrapper."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def _copy_result(final: dict[str, Any] | None) -> dict[str, Any] | None:
    """An independent copy of the result (R13): callers may change what they are given."""
    if final is None:
        return None
    out = dict(final)
    for key in ("scores", "islands", "boats", "teams"):
        if out[key] is not None:
            out[key] = dict(out[key])
    for key in ("ranking", "team_ranking"):
        if out[key] is not None:
            out[key] = [list(group) for group in out[key]]
    out["winners"] = list(out["winners"])
    return out


_CHOOSE = [[comb(n, k) for k in range(7)] for n in range(7)]
"""_CHOOSE[n][k]: the binomial coefficient, for the at most six beaches of an island."""


def _unrank_combination(items: tuple[int, ...], n: int, rank: int) -> tuple[int, ...]:
    """The `rank`-th n-combination of `items` in lexicographic order (as itertools.combinations)."""
    chosen = []
    start = 0
    for left in range(n, 0, -1):
        for i in range(start, len(items)):
            count = _CHOOSE[len(items) - i - 1][left - 1]
            if rank < count:
                chosen.append(items[i])
                start = i + 1
                break
            rank -= count
    return tuple(chosen)


def _landing_key(placement: landing.Landing) -> Key:
    return ("land", tuple(sorted([(c, b) for b, added in enumerate(placement) for c in arrangements.boats(added)])))


def _action(key: Key) -> Action:
    """The canonical wire form of an action key."""
    kind = key[0]
    if kind in ("setup", "settle"):
        return {"type": kind, "beach": key[1]}
    if kind == "expand":
        action: Action = {"type": "expand", "island": key[1], "beaches": list(key[2])}
        if key[3] is not None:
            action["take_back"] = {"island": key[3][0], "beach": key[3][1]}
        return action
    if kind == "royal":
        return {"type": "royal", "island": key[1]}
    if kind == "colonise":
        return {"type": "colonise"}
    if kind == "restart":
        if key[1] == "tonga":
            return {"type": "restart", "tonga": list(key[2])}
        return {"type": "restart", "island": key[1], "beach": key[2]}
    if kind == "migrate":
        return {"type": "migrate", "island": key[1], "beach": key[2], "pier": key[3]}
    if kind == "land":
        return {"type": "land", "boats": [[c, b] for c, b in key[1]]}
    if kind == "place_tile":
        return {"type": "place_tile", "cell": [key[1], key[2]], "rotation": key[3]}
    if kind == "turn_tile":
        return {"type": "turn_tile", "rotation": key[1]}
    raise AssertionError(kind)  # pragma: no cover


def _show(action: Any) -> str:
    text = repr(action)
    return text if len(text) <= 200 else text[:197] + "..."


def _int(value: Any, what: str, action: Any) -> int:
    if type(value) is not int:
        raise IllegalAction("malformed", f"{what} must be an integer, got {_show(value)} in {_show(action)}", action)
    return value


def _str(value: Any, what: str, action: Any) -> str:
    if type(value) is not str:
        raise IllegalAction("malformed", f"{what} must be a string, got {_show(value)} in {_show(action)}", action)
    return value


def _list(value: Any, what: str, action: Any, most: int = 16) -> list[Any]:
    if type(value) is not list or len(value) > most:
        raise IllegalAction(
            "malformed", f"{what} must be a list of at most {most}, got {_show(value)} in {_show(action)}", action
        )
    return value


def _key(action: Any) -> Key:
    """The canonical key of an action, checking its shape; raises IllegalAction('malformed')."""
    if type(action) is not dict:
        raise IllegalAction("malformed", f"an action is a dict with a 'type', got {_show(action)}", action)
    kind = action.get("type")
    if type(kind) is not str or kind not in _FIELDS:
        raise IllegalAction("malformed", f"unknown action type {_show(kind)} in {_show(action)}", action)
    if any(type(field) is not str for field in action):
        raise IllegalAction("malformed", f"field names must be strings in {_show(action)}", action)
    extra = set(action) - _FIELDS[kind] - {"type"}
    if extra:
        raise IllegalAction("malformed", f"unexpected field(s) {sorted(map(str, extra))} in {_show(action)}", action)
    try:
        if kind in ("setup", "settle"):
            return (kind, _int(action["beach"], "beach", action))
        if kind == "expand":
            island = _str(action["island"], "island", action)
            beaches = tuple(sorted(_int(b, "beach", action) for b in _list(action["beaches"], "beaches", action)))
            tb = action.get("take_back")
            take_back = None
            if tb is not None:
                if type(tb) is not dict or set(tb) != {"island", "beach"}:
                    raise IllegalAction(
                        "malformed", f"take_back must be {{'island': N, 'beach': i}}, got {_show(tb)}", action
                    )
                take_back = (
                    _str(tb["island"], "take_back island", action),
                    _int(tb["beach"], "take_back beach", action),
                )
            return ("expand", island, beaches, take_back)
        if kind == "royal":
            return ("royal", _str(action["island"], "island", action))
        if kind == "colonise":
            return ("colonise",)
        if kind == "restart":
            if "tonga" in action:
                if set(action) != {"type", "tonga"}:
                    raise IllegalAction("malformed", f"a Tonga restart has only 'tonga': {_show(action)}", action)
                pair = tuple(sorted(_int(b, "beach", action) for b in _list(action["tonga"], "tonga", action, 2)))
                return ("restart", "tonga", pair)
            if set(action) != {"type", "island", "beach"}:
                raise IllegalAction(
                    "malformed", f"a restart names 'tonga' or 'island' and 'beach': {_show(action)}", action
                )
            return ("restart", _str(action["island"], "island", action), _int(action["beach"], "beach", action))
        if kind == "migrate":
            return (
                "migrate",
                _str(action["island"], "island", action),
                _int(action["beach"], "beach", action),
                _int(action["pier"], "pier", action),
            )
        if kind == "land":
            pairs = []
            for given in _list(action["boats"], "boats", action, 8):
                boat = _list(given, "a landing pair [colour, beach]", action, 2)
                if len(boat) != 2:
                    raise IllegalAction("malformed", f"a landing pair is [colour, beach], got {_show(boat)}", action)
                pairs.append((_str(boat[0], "colour", action), _int(boat[1], "beach", action)))
            return ("land", tuple(sorted(pairs)))
        if kind == "place_tile":
            cell = _list(action["cell"], "cell", action, 2)
            if len(cell) != 2:
                raise IllegalAction("malformed", f"cell must be [q, r], got {_show(cell)}", action)
            return (
                "place_tile",
                _int(cell[0], "q", action),
                _int(cell[1], "r", action),
                _int(action["rotation"], "rotation", action),
            )
        if kind == "turn_tile":
            return ("turn_tile", _int(action["rotation"], "rotation", action))
    except KeyError as missing:
        raise IllegalAction("malformed", f"missing field {missing} in {_show(action)}", action) from None
    raise AssertionError(kind)  # pragma: no cover
