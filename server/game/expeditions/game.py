"""The Expeditions game state and its resolution (E2-E12). Pure: no I/O, no clock; all randomness in `dice`."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]

from . import events as ev
from .catalogue import (
    BOATS,
    BY_NUMBER,
    CAPACITY,
    COLOURS,
    ISLANDS,
    OPPOSITE,
    SEAS,
    SIDES,
    START_SEA_CELLS,
    TILES,
    TONGA,
    TONGA_CELL,
    Cell,
    Island,
    Sea,
)
from .errors import OrderError, PositionError
from .orders import Expand, Order, Place, Royal, order_from_wire
from .rng import Dice
from .rules import Options, check, options
from .scoring import ranking, scores
from .state import State
from .view import view

MAX_TURNS = 10
ISLANDS_TO_END = 12


class Expeditions(State):
    """One game of Expeditions. Build with `new`, `from_position`, `from_bytes` or `replay`."""

    # ---- building -------------------------------------------------------------------------------------
    @classmethod
    def new(cls, colours: list[str] | tuple[str, ...], seed: int) -> Expeditions:
        """A new game (E2): Tonga on (6,6), four random sea tiles on its diagonals, the rest in the deck."""
        game = cls()
        game._set_colours(colours)
        game.seed = seed
        game.dice = Dice(seed)
        seas = [s.id for s in SEAS]
        game.dice.shuffle(seas)
        game._put(TONGA.id, TONGA_CELL)
        for cell, sea in zip(START_SEA_CELLS, seas[:4], strict=True):
            game._put(sea, cell)
        game.deck = seas[4:] + [i.id for i in ISLANDS[1:]]
        game.dice.shuffle(game.deck)
        game.supply = {c: BOATS for c in game.colours}
        return game

    def _set_colours(self, colours: list[str] | tuple[str, ...]) -> None:
        if not 2 <= len(colours) <= 6 or len(set(colours)) != len(colours) or any(c not in COLOURS for c in colours):
            raise PositionError(f"2-6 distinct colours of {COLOURS}, got {colours!r}")
        self.colours = tuple(colours)

    def _put(self, tile: str, cell: Cell) -> None:
        self.board[cell] = tile
        self.where[tile] = cell
        if isinstance(TILES[tile], Island):
            self.beaches[cell] = {s: [] for s in SIDES}

    @classmethod
    def from_position(cls, position: dict[str, Any]) -> Expeditions:
        """Any position, for tests: see docs/expeditions.md. `deck` is the whole deck, top first (default:
        the tiles not on the map, shuffled from `seed`); `draws` fixed random outcomes used first, in order."""
        game = cls()
        game._set_colours(position["colours"])
        game.seed = int(position.get("seed", 0))
        game.dice = Dice(game.seed)   # the default deck's shuffle draws from the stream; `draws` come after it
        game.turn = int(position.get("turn", 1))
        for spec in position.get("tiles", []):
            tile, cell = spec["tile"], Cell(*spec["cell"])
            if tile not in TILES or tile in game.where or cell in game.board or not cell.on_board():
                raise PositionError(f"unknown or repeated tile {tile!r} or bad cell {cell!r}")
            game._put(tile, cell)
            if spec.get("boosted"):
                game.boosted.add(cell)
            for side, boats in spec.get("beaches", {}).items():
                if cell not in game.beaches or side not in SIDES or any(c not in game.colours for c in boats):
                    raise PositionError(f"bad beach {side!r} on {tile}: {boats!r}")
                game.beaches[cell][side] = list(boats)
            if spec.get("royal") is not None:
                if spec["royal"] not in game.colours or tile == TONGA.id or any(game.beaches[cell].values()):
                    raise PositionError(f"royal island {tile}: needs a colour and no boats")
                game.royal[cell] = spec["royal"]
        if TONGA.id not in game.where:
            raise PositionError("Tonga must be on the map")
        rest = sorted(set(TILES) - set(game.where))
        deck = position.get("deck")
        if deck is None:
            game.dice.shuffle(rest)
            deck = rest
        elif sorted(deck) != rest:
            raise PositionError("the deck must hold exactly the tiles not on the map")
        game.deck = list(deck)
        game.dice.fixed = [int(d) for d in position.get("draws") or []]   # the game's random choices use them first
        on_map = {c: game.on_map(c) for c in game.colours}
        crowded = {c: n for c, n in on_map.items() if n > BOATS}
        if crowded:
            raise PositionError(f"every colour has {BOATS} boats (E1): {crowded} on the map")
        game.supply = {c: int(position.get("supplies", {}).get(c, BOATS - on_map[c])) for c in game.colours}
        if any(game.supply[c] < 0 or game.supply[c] + on_map[c] != BOATS for c in game.colours):
            raise PositionError(f"every colour has {BOATS} boats (E1): supply + boats on the map")
        if len(set(game.royal.values())) != len(game.royal):
            raise PositionError("one royal island per colour")
        return game

    # ---- reading --------------------------------------------------------------------------------------
    @property
    def submitted(self) -> tuple[str, ...]:
        """Colours that have an order in for this turn (public: E3)."""
        return tuple(c for c in self.colours if c in self.pending)

    def pending_order(self, colour: str) -> Order | None:
        """The colour's own pending order (only ever shown to that colour)."""
        return self.pending.get(colour)

    def legal_orders(self, colour: str) -> Options:
        """What `colour` may order this turn (E4)."""
        return options(self, colour)

    def check(self, colour: str, order: Any) -> Order:
        """The canonical order, or OrderError with a stable code (E4)."""
        return check(self, colour, order)

    def result(self) -> dict[str, Any] | None:
        """The final result (E12) or None while the game runs."""
        return ranking(self) if self.over is not None else None

    def view(self, colour: str | None = None) -> dict[str, Any]:
        """What `colour` (None: a spectator) may see (E3, R15)."""
        return view(self, colour)

    # ---- orders and resolution ------------------------------------------------------------------------
    def submit(self, colour: str, order: Any) -> Order:
        """Check and keep (or replace) the colour's order for this turn; returns the canonical order."""
        checked = check(self, colour, order)
        self.pending[colour] = checked
        self.changes[colour] = self.changes.get(colour, 0) + 1
        return checked

    def withdraw(self, colour: str) -> None:
        """Forget the colour's pending order."""
        if self.pending.pop(colour, None) is not None:
            self.changes[colour] = self.changes.get(colour, 0) + 1

    def changed(self, colour: str) -> int:
        """How many times the colour submitted or withdrew an order this turn (E3 lets it replace its order
        until the turn resolves; a service may bound how often)."""
        return self.changes.get(colour, 0)

    def resolve(self) -> list[ev.Event]:
        """Resolve the turn with the orders in (missing ones do nothing): E5-E11, every step an event."""
        if self.over is not None:
            raise OrderError("game_over", "the game is over")
        orders = {c: self.pending.get(c) for c in self.colours}
        self.log.append({c: o.to_wire() for c, o in orders.items() if o is not None})
        self.pending = {}
        self.changes = {}
        out: list[ev.Event] = [
            ev.OrdersRevealed(self.turn, {c: None if o is None else o.to_wire() for c, o in orders.items()})
        ]
        made_royal: set[Cell] = set()
        for colour in self.colours:  # E5.1
            order = orders[colour]
            if isinstance(order, Royal):
                cell = self.where[order.island]
                returned = sum(len(b) for b in self.beaches[cell].values())
                self.supply[colour] += returned
                self.beaches[cell] = {s: [] for s in SIDES}
                self.royal[cell] = colour
                made_royal.add(cell)
                out.append(ev.RoyalFounded(colour, order.island, cell, returned))
        for colour in self.colours:  # E5.2
            order = orders[colour]
            if isinstance(order, Expand | Place):
                self._expand(colour, order, out)
        if not self._migrations(out):  # E7-E9; False: the last tile of a kind ended the game (E11)
            self._finish("last_tile", out)
            return out
        self._typhoon(out)  # E10
        if sum(1 for t in self.board.values() if isinstance(TILES[t], Island)) >= ISLANDS_TO_END:
            self._finish("islands", out)
        elif self.turn >= MAX_TURNS:
            self._finish("turns", out)
        else:
            out.append(self._scored())
            self.turn += 1
        return out

    def _expand(self, colour: str, order: Expand | Place, out: list[ev.Event]) -> None:
        cell = self.where[order.island]
        if isinstance(order, Place):
            moves: tuple[tuple[str, int], ...] = ((order.beach, 1),)
        else:
            moves = order.moves
            if order.take_back is not None:
                back = self.where[order.take_back[0]]
                self.beaches[back][order.take_back[1]].remove(colour)
                self.supply[colour] += 1
                out.append(ev.BoatMoved(colour, order.take_back[0], back, order.take_back[1], "supply"))
        for side, n in moves:  # take-backs first, so a boat taken back can be placed again
            for _ in range(-n):
                self.beaches[cell][side].remove(colour)
                self.supply[colour] += 1
                out.append(ev.BoatMoved(colour, order.island, cell, side, "supply"))
        for side, n in moves:
            for _ in range(n):
                if cell in self.royal:  # made royal this turn (E5.2): this move fails, the rest applies
                    out.append(ev.MoveFailed(colour, order.island, side, "royal"))
                    continue
                self.beaches[cell][side].append(colour)
                self.supply[colour] -= 1
                out.append(ev.BoatMoved(colour, order.island, cell, side, "beach"))

    def _migrations(self, out: list[ev.Event]) -> bool:
        """E7-E9. False when the game ended at once (E11)."""
        migrated: set[tuple[Cell, str]] = set()
        overflowing = self._overflowing(migrated)
        if overflowing:
            out.append(ev.MigrationStarted(tuple((self.board[c], s, n) for n, c, s in overflowing)))
        while overflowing:
            most = overflowing[0][0]
            tied = [(c, s) for n, c, s in overflowing if n == most]
            cell, side = tied[self.dice.below(len(tied))] if len(tied) > 1 else tied[0]
            migrated.add((cell, side))
            boats = tuple(self.beaches[cell][side])
            self.beaches[cell][side] = []
            out.append(ev.FleetDeparted(self.board[cell], cell, side, boats, len(set(boats)), len(tied)))
            if not self._voyage(cell, side, boats, out):
                return False
            overflowing = self._overflowing(migrated)
        return True

    def _overflowing(self, migrated: set[tuple[Cell, str]]) -> list[tuple[int, Cell, str]]:
        """Beaches over capacity that have not migrated this phase, most boats first (then by cell, side)."""
        found = [
            (-len(b[s]), cell, s)
            for cell, b in self.beaches.items()
            for s in SIDES
            if len(b[s]) > CAPACITY and (cell, s) not in migrated
        ]
        return [(-n, cell, s) for n, cell, s in sorted(found, key=lambda f: (f[0], f[1].y, f[1].x, SIDES.index(f[2])))]

    def _voyage(self, start: Cell, side: str, boats: tuple[str, ...], out: list[ev.Event]) -> bool:
        """E8, from the beach on `side` of the island on `start`. False when the last tile of a kind was placed."""
        mv = len(set(boats))
        cell, heading = start, side
        for _ in range(4 * 11 * 11 + 1):  # routes pair sides, so a voyage never repeats a step
            cell = cell.step(heading)
            ended = False
            if not cell.on_board():
                self._return(boats)
                out.append(ev.FleetLost("edge", cell, boats))
                return True
            if cell not in self.board:
                tile = self.deck.pop(0)
                self._put(tile, cell)
                kind = type(TILES[tile])
                left = {
                    "islands": sum(1 for t in self.deck if isinstance(TILES[t], Island)),
                    "seas": sum(1 for t in self.deck if isinstance(TILES[t], Sea)),
                }
                out.append(ev.TilePlaced(tile, cell, left))
                ended = left["islands" if kind is Island else "seas"] == 0
            here = TILES[self.board[cell]]
            if isinstance(here, Sea) and ended:  # E11: the fleet stops on the last sea tile, scoring nothing
                self.at_sea.append((cell, boats))
                out.append(ev.FleetAtSea(cell, boats))
                return False
            if isinstance(here, Sea):
                exit_side, factor = here.route(OPPOSITE[heading])
                factor += 1 if cell in self.boosted else 0
                survived = factor <= mv
                out.append(ev.RouteSailed(here.id, cell, OPPOSITE[heading], exit_side, factor, mv, survived))
                if not survived:
                    self._return(boats)
                    out.append(ev.FleetLost("weather", cell, boats))
                    return True
                heading = exit_side
                continue
            if cell in self.royal:
                out.append(ev.Bounced(here.id, cell, self.board[start]))
                cell = start
            self._landfall(cell, boats, out)
            return not ended
        raise AssertionError("a voyage cannot go on forever")

    def _landfall(self, cell: Cell, boats: tuple[str, ...], out: list[ev.Event]) -> None:
        placements = []
        for colour in boats:
            side = SIDES[self.dice.below(4)]
            self.beaches[cell][side].append(colour)
            placements.append((colour, side))
        out.append(ev.Landfall(self.board[cell], cell, tuple(placements)))

    def _return(self, boats: tuple[str, ...]) -> None:
        for colour in boats:
            self.supply[colour] += 1

    def _typhoon(self, out: list[ev.Event]) -> None:
        """E10."""
        number = self.dice.below(len(BY_NUMBER)) + 1
        struck = BY_NUMBER[number]
        cell = self.where.get(struck.id)
        seas = [i for i, t in enumerate(self.deck) if isinstance(TILES[t], Sea)]
        hit = isinstance(struck, Sea) and cell is not None and bool(seas)
        out.append(ev.TyphoonDrawn(number, struck.id, hit))
        if not hit or cell is None:
            return
        new = self.deck.pop(seas[self.dice.below(len(seas))])
        del self.where[struck.id]
        self.deck.insert(self.dice.below(len(self.deck) + 1), struck.id)
        self._put(new, cell)
        self.boosted.add(cell)
        out.append(ev.Typhoon(cell, struck.id, new))

    def _scored(self) -> ev.TurnScored:
        s = scores(self)
        return ev.TurnScored(self.turn, s["scores"], s["islands"], s["boats"])

    def _finish(self, reason: str, out: list[ev.Event]) -> None:
        out.append(self._scored())
        self.over = reason
        out.append(ev.GameOver(reason, ranking(self)))

    # ---- persistence and replay -----------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The whole state, deck and random state included (server-side storage only)."""
        data = {
            "colours": list(self.colours),
            "seed": self.seed,
            "turn": self.turn,
            "over": self.over,
            "board": [[c.x, c.y, t] for c, t in self.board.items()],
            "beaches": [[c.x, c.y, b] for c, b in self.beaches.items()],
            "royal": [[c.x, c.y, o] for c, o in self.royal.items()],
            "boosted": sorted([c.x, c.y] for c in self.boosted),
            "supply": self.supply,
            "at_sea": [[c.x, c.y, list(b)] for c, b in self.at_sea],
            "deck": self.deck,
            "dice": [self.dice.state, self.dice.fixed],
            "pending": {c: o.to_wire() for c, o in self.pending.items()},
            "changes": self.changes,
            "log": self.log,
        }
        return bytes(msgpack.packb(data, use_bin_type=True))

    @classmethod
    def from_bytes(cls, blob: bytes) -> Expeditions:
        """Inverse of `to_bytes`."""
        data = msgpack.unpackb(blob, raw=False)
        game = cls()
        game.colours = tuple(data["colours"])
        game.seed, game.turn, game.over = data["seed"], data["turn"], data["over"]
        for x, y, t in data["board"]:
            game.board[Cell(x, y)] = t
            game.where[t] = Cell(x, y)
        game.beaches = {Cell(x, y): b for x, y, b in data["beaches"]}
        game.royal = {Cell(x, y): o for x, y, o in data["royal"]}
        game.boosted = {Cell(x, y) for x, y in data["boosted"]}
        game.supply = dict(data["supply"])
        game.at_sea = [(Cell(x, y), tuple(b)) for x, y, b in data["at_sea"]]
        game.deck = list(data["deck"])
        game.dice = Dice(data["dice"][0], data["dice"][1])
        game.pending = {c: order_from_wire(o) for c, o in data["pending"].items()}
        game.changes = dict(data.get("changes", {}))   # (states stored before it count from 0)
        game.log = list(data["log"])
        return game

    @classmethod
    def replay(cls, colours: list[str] | tuple[str, ...], seed: int, turns: list[dict[str, Any]]) -> Expeditions:
        """Rebuild a game from its seed and each turn's orders (`game.log`)."""
        game = cls.new(colours, seed)
        for orders in turns:
            for colour, order in orders.items():
                game.submit(colour, order)
            game.resolve()
        return game

    def clone(self) -> Expeditions:
        """An independent copy (by hand: a look-ahead bot makes thousands, and deepcopy took most of it)."""
        other = Expeditions()
        other.colours, other.seed, other.turn, other.over = self.colours, self.seed, self.turn, self.over
        other.board, other.where = dict(self.board), dict(self.where)
        other.beaches = {cell: {side: list(boats) for side, boats in b.items()} for cell, b in self.beaches.items()}
        other.royal, other.boosted, other.supply = dict(self.royal), set(self.boosted), dict(self.supply)
        other.at_sea = list(self.at_sea)   # (cell, boats) tuples: never changed in place
        other.deck = list(self.deck)
        other.dice = Dice(self.dice.state, self.dice.fixed)
        other.pending, other.changes = dict(self.pending), dict(self.changes)   # orders are frozen values
        other.log = list(self.log)   # each turn's orders: appended, never changed
        return other

    def imagine(self, seed: int) -> Expeditions:
        """A copy whose deck order and random state are redrawn from `seed`: what a look-ahead bot uses."""
        other = self.clone()
        other.dice = Dice(seed)
        other.deck = sorted(other.deck)   # from the tiles alone: the imagined order owes nothing to the real one
        other.dice.shuffle(other.deck)
        return other

    def __repr__(self) -> str:
        return f"Expeditions(turn {self.turn}, {'/'.join(self.colours)}, over={self.over})"
