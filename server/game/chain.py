"""The R9 solver: can a chain reaction still end, and on which islands does an endless one run.

A chain (R6–R9) moves boats between the non-royal islands; an option is legal only when the chain can
still end after it without repeating an arrangement it has already passed through (R9). The solver
answers those questions for the table it is given, keeping what it learns (the island topology, voyage
traces, networks of islands a chain can reach, verdicts by arrangement) for as long as it holds. The
rules tell it of every change through `tile_changed` (a tile placed, removed, or made a royal island) and
`next_decision` (boats moved), and keep its history of the chain through `see` and `forget_history`.

Arrangements are tuples of beach codes (arrangements.py) in the numbering of a `Topology`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from . import arrangements, landing
from .arrangements import COUNT, KINDS, Arrangement
from .geometry import Cell, neighbour, opposite
from .landing import island_landings
from .table import Placed

WATCH_EVERY = 256
"""Units of search work (arrangements met, tested or expanded) between two calls of the watch (`watch`)."""

UNWATCHED = 1 << 62
"""`next_watch` when nobody watches: never reached."""

LONG_SEARCH = 64
"""Arrangements an R9 search meets before it looks for a frozen island (`ChainSolver._frozen`), which ends
most long searches at once but costs more than most short ones."""


class Topology:
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
        # per beach, (danger, island reached) for each pier: filled by ChainSolver._moves, valid for one table
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


class Network:
    """The islands a chain can still reach from some arrangement (R9): those with a full beach and those
    their fleets can land on, directly or after further landings. Nothing outside them can change or
    fill while the chain runs, so a search works on their beaches alone (numbered by `topology`; `ids`
    gives each one's number on the whole table) and its verdicts hold for any table that differs only
    outside them."""

    __slots__ = ("topology", "ids", "blind", "memo", "homing", "risky")

    def __init__(self, topology: Topology, ids: list[int], blind: tuple[bool, ...] | None) -> None:
        self.topology = topology
        self.ids = ids
        self.blind = blind
        self.memo: dict[Arrangement, tuple[Arrangement, ...] | None] = {}  # see ChainSolver._way_out
        # see ChainSolver._frozen: the islands every fleet of which comes back to them, with their beaches and
        # the worst danger on the way from each; and the beaches a fleet of which may draw or sink
        self.homing: list[tuple[list[int], list[int]]] | None = None
        self.risky: list[int] = []


class ChainSolver:
    """R9 over one table (`tiles`, the rules' own dict, read but never changed here)."""

    def __init__(self, tiles: dict[Cell, Placed]) -> None:
        self.tiles = tiles
        self.seen: set[Arrangement] = set()
        """The chain's history: the arrangements it has passed through since the last draw, sinking or turn."""
        # Caches, never serialised: the island topology and voyage traces (cleared where the table changes),
        # and what is memoised for the pending decision (cleared by `next_decision`).
        self._decision: dict[str, Any] = {}
        self._topology: Topology | None = None
        self._traces: dict[tuple[Cell, int], tuple[int, Cell | None]] = {}
        self._traces_ending: dict[Cell, list[tuple[Cell, int]]] = {}  # the traces by the cell they end on
        # R9 verdicts by arrangement: the path out found (escapes) or None (does not escape). Valid for
        # this table: cleared whenever a tile or a royal island changes it.
        self._escape_memo: dict[Arrangement, tuple[Arrangement, ...] | None] = {}
        # R9 verdicts without the chain's history, by colour-blind arrangement; valid for this table.
        self._networks: dict[tuple[Cell, ...], Network] = {}  # by their islands
        self._network_of_full: dict[tuple[Cell, ...], Network] = {}  # by the islands with a full beach
        self._sailing_cache: tuple[dict[Cell, set[Cell]], set[Cell]] | None = None
        self._blind: tuple[tuple[bool, ...] | None] | None = None
        # The watch (Game.watch): called every WATCH_EVERY units of search work; it may raise to abandon
        # the call. Counting costs an addition and a comparison per unit; the clock stays with the caller.
        self.watch: Callable[[], None] | None = None
        self.work = 0
        self.next_watch = UNWATCHED

    def set_watch(self, watch: Callable[[], None] | None) -> None:
        """Have `watch` called every WATCH_EVERY units of search work from now on (None: nobody)."""
        self.watch = watch
        self.next_watch = UNWATCHED if watch is None else self.work + WATCH_EVERY

    def _worked(self) -> None:
        """WATCH_EVERY more units of work were done: tell the watch (which may raise)."""
        self.next_watch = self.work + WATCH_EVERY
        if self.watch is not None:
            self.watch()

    # ------------------------------------------------------------------ what the rules tell it

    def tile_changed(self, cell: Cell, placed: bool) -> None:
        """The one hook for a changed table: a tile was placed on the empty `cell` (`placed`), or the tile
        there was removed or became a royal island. Only what that change can touch is forgotten."""
        if placed:
            # only the voyages that ended on this empty cell change, and the R9 verdicts of their islands
            self._table_changed(self._forget_traces(cell))
            t = self.tiles[cell]
            if t.island is not None and self._topology is not None:
                self._topology.add(t)
            return
        self._table_changed()
        self._topology = None
        if cell in self.tiles:  # a royal island now: fleets reaching it are turned back (R10)
            self._forget_traces(cell)
        else:
            self._traces.clear()
            self._traces_ending.clear()

    def next_decision(self) -> None:
        """Boats moved: forget what was memoised for the decision before."""
        self._decision.clear()

    def see(self, arr: Arrangement) -> None:
        """The chain passed through `arr` (R9: it may not come back to it)."""
        self.seen.add(arr)

    def forget_history(self) -> None:
        """A draw, a sinking or a new turn ends the chain's history (R9)."""
        self.seen.clear()
        self._forget_failures()

    # ------------------------------------------------------------------ what the rules ask

    def now(self) -> tuple[Topology, Arrangement, list[int]]:
        """The topology, the current arrangement and its full beaches (memoised for this decision)."""
        memo = self._decision.get("chain")
        if memo is None:
            topo = self._topo()
            arr = topo.arrangement()
            memo = (topo, arr, _full_beaches(topo, arr))
            self._decision["chain"] = memo
        return memo  # type: ignore[no-any-return,unused-ignore]

    def migration_escapes(self, cell: Cell, beach: int, pier: int) -> bool:
        """R9: can the chain still end after the fleet of the full `beach` of the island on `cell` sails
        out of `pier`?"""
        topo, arr, full = self.now()
        return self._option_escapes(topo, arr, topo.of_cell[cell][beach], pier, len(full))

    def landing_escapes(self, target: Cell, placement: landing.Landing) -> bool:
        """R9: can the chain still end after the arrived fleet lands `placement` on the island at `target`
        (without coming back to an arrangement it has passed through)?"""
        topo, arr, _full = self.now()
        ids = topo.of_cell[target]
        new = list(arr)
        for j, a in zip(ids, placement):  # noqa: B905 - same length
            new[j] += a
        after = tuple(new)
        if after in self.seen:
            return False
        return self._escapes(topo, after)

    def voyage_escapes(self, at: Cell, direction: int, origin: Cell, boats: list[str]) -> bool:
        """R9 for a fleet already at sea on `at` heading out through `direction`."""
        topo = self._topo()
        arr = topo.arrangement()
        danger, target = self.voyage(at, direction)
        if target is None or danger > len(set(boats)):
            return True
        if target == at:  # turned back by a royal island: the departure island
            target = origin
        return any(
            self._escapes(topo, nxt) for nxt in self._landing_results(topo, arr, target, arrangements.code(boats))
        )

    def endless_islands(self, start: Arrangement) -> set[Cell]:
        """The islands an endless chain from `start` runs on (R9): those whose fleets sail and land in the
        part of the chain it can never leave (its bottom strongly connected components). An island that
        only feeds a fleet into the loop is not one of them."""
        topo = self._topo()
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

    def frozen(self, arr: Arrangement) -> bool:
        """Whether the frozen-island shortcut (`_frozen`) finds the chain from `arr` endless."""
        topo = self._topo()
        network = self._network(topo, arr)
        return self._frozen(network, _blind_form(tuple([arr[j] for j in network.ids]), network.blind))

    def voyage(self, cell: Cell, direction: int) -> tuple[int, Cell | None]:
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

    # ------------------------------------------------------------------ the search

    def _option_escapes(self, topo: Topology, arr: Arrangement, i: int, pier: int, full: int) -> bool:
        """R9: can the chain still end after the fleet of beach `i` sails out of `pier`? `full` is the
        number of full beaches in `arr`."""
        fleet = arr[i]
        danger, target = self.voyage(topo.index[i][0], pier)
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

    def _landing_results(self, topo: Topology, arr: Arrangement, target: Cell, fleet: int) -> list[Arrangement]:
        """The arrangements after each landing (R8) of the fleet `fleet` (a code) on the island at `target`."""
        self.work += 1
        if self.work >= self.next_watch:
            self._worked()
        first, end, moorings = topo.span[target]
        head, tail = arr[:first], arr[end:]
        return [head + beaches + tail for beaches in island_landings(arr[first:end], moorings, fleet)]

    def _quick_escape(self, topo: Topology, arr: Arrangement, full: list[int] | None = None) -> int:
        """The cheap sufficient tests of R9 escape: a full beach's pier draws a tile or sinks its fleet, or
        the only full beach can land somewhere without filling a beach. Returns 0 when one passes, else
        the number of full beaches (how far the arrangement is from ending the chain). `full`: the full
        beaches of `arr`, when the caller knows them."""
        self.work += 1
        if self.work >= self.next_watch:
            self._worked()
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

    def _escapes(self, topo: Topology, start: Arrangement) -> bool:
        """R9: can the chain from `start` reach a table with no full beach (or a draw, or a sinking)
        without passing through an arrangement it has already seen (`forbidden`, the chain's history)?
        First without the history (`_way_out`); then, when that way passes the history, a depth-first
        search that tries first the arrangements with the fewest full beaches, with the cheap tests applied
        to each arrangement as soon as it is met.

        Verdicts outlive the decision (see `_escape_memo`): a success keeps the path it found and holds
        while no arrangement of that path is forbidden; a failure holds while `forbidden` only grows."""
        forbidden = self.seen
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

    def _way_out(self, topo: Topology, start: Arrangement) -> tuple[Arrangement, ...] | None:
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

    def _network_way_out(self, network: Network, start: Arrangement) -> tuple[Arrangement, ...] | None:
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
            if not looked and len(parent) > LONG_SEARCH:
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

    def _frozen(self, network: Network, arr: Arrangement) -> bool:
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
        self, topo: Topology, arr: Arrangement, blind: tuple[bool, ...] | None
    ) -> list[tuple[Cell, Cell, list[Arrangement]]]:
        """Every arrangement one step of the chain (R6–R8: a full beach's fleet sails and lands) leads to
        from `arr`, by the islands sailed from and landed on; on `blind` beaches the boats are counted,
        not told apart. For arrangements where no pier of a full beach draws a tile (`_quick_escape`)."""
        self.work += 1
        if self.work >= self.next_watch:
            self._worked()
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

    def _moves(self, topo: Topology, i: int) -> list[tuple[int, Cell | None]]:
        """(danger, island reached) for each pier of beach `i` of the topology (see `voyage`). Cached until
        the table changes."""
        moves = topo.moves[i]
        if moves is None:
            cell = topo.index[i][0]
            moves = topo.moves[i] = [self.voyage(cell, pier) for pier in topo.piers[i]]
        return moves

    def _network(self, topo: Topology, arr: Arrangement, full_beaches: list[int] | None = None) -> Network:
        """The islands the chain from `arr` can reach (see `Network`), cached until the table changes.
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
            network = Network(
                Topology([self.tiles[cell] for cell in cells]), ids, local if local and any(local) else None
            )
            self._networks[cells] = network
        self._network_of_full[full] = network
        return network

    def _hopeless(self, topo: Topology, arr: Arrangement) -> bool:
        """Whether `arr` is already known to lead into an endless chain whatever the history."""
        network = self._network(topo, arr)
        local = _blind_form(tuple([arr[j] for j in network.ids]), network.blind)
        return local in network.memo and network.memo[local] is None

    def _sailing(self, topo: Topology) -> tuple[dict[Cell, set[Cell]], set[Cell]]:
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

    def _colour_blind(self, topo: Topology) -> tuple[bool, ...] | None:
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
        memo: tuple[int, set[Arrangement]] | None = self._decision.get("blind_seen")
        if memo is None or memo[0] != len(self.seen):
            memo = (len(self.seen), {_blind_form(arr, blind) for arr in self.seen})
            self._decision["blind_seen"] = memo
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
        beaches and so its verdicts (see `Network`). Otherwise every verdict goes."""
        self._decision.clear()
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

    def _forget_traces(self, cell: Cell) -> set[Cell]:
        """Forget the voyages that ended on `cell`; the cells they set out from."""
        starts = set()
        traces = self._traces
        for key in self._traces_ending.pop(cell, ()):
            if key in traces:
                del traces[key]
            starts.add(key[0])
        return starts

    def _topo(self) -> Topology:
        if self._topology is None:
            self._topology = Topology(self.tiles.values())
        return self._topology


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


def _full_beaches(topo: Topology, arr: Arrangement) -> list[int]:
    """The full beaches of an arrangement (R6), by their numbers in the topology."""
    moorings = topo.moorings
    return [i for i, boats in enumerate(arr) if (boats & COUNT) == moorings[i]]


def _blind_form(arr: Arrangement, blind: tuple[bool, ...] | None) -> Arrangement:
    """`arr` with the boats of colour-blind beaches counted, not told apart (as if all were red)."""
    if blind is None:
        return arr
    return tuple([arrangements.counted(boats) if b else boats for boats, b in zip(arr, blind)])  # noqa: B905 - same length
