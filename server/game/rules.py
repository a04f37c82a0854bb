"""The rules R3–R14 that move a table on: its state, the decisions, and the automatic steps between them.

`Rules` holds one table and applies actions to it; `Game` (game.py) holds one and adds creation, views
and persistence. Its public names are the engine's internal interface, for its sibling modules
(docs/engine.md, "Inside the engine"): `Game`'s are the contract. Each rule's options are enumerated once
in options.py; R9 (can a chain still end) is asked of the solver in chain.py, which the rules tell of every
changed tile through one hook.
"""

from __future__ import annotations

from typing import Any

from . import arrangements, landing, options
from . import events as E  # noqa: N812 - the event classes read as E.Sunk, E.Landed, ...
from .actions import ActionValue, Colonise, Expand, Land, Migrate, PlaceTile, Restart, Royal, Settle, Setup, TurnTile
from .arrangements import COUNT, KINDS, Arrangement
from .catalogue import COLOURS, TILES, TONGA, Island, Ocean
from .chain import ChainSolver
from .drawing import tile_view
from .errors import IllegalAction
from .geometry import SIDES, Cell, forced_rotation, neighbour, opposite
from .phases import Phase
from .scoring import copy_result, final_result, scores
from .table import Fleet, Frontier, Placed
from .wire import ANSWERS, Action, Event, show

BOATS = 15
"""Boats of each colour (R1)."""
MAX_ROYAL = 2
"""Royal islands a colour may found (R10)."""
VARIANTS = ("two_colours", "free_follow_up")
"""Room settings of R14."""

# Decisions whose candidates the R9 filter may forbid; the others' candidates are all legal.
FILTERED = (Phase.MIGRATE, Phase.LAND, Phase.TURN_TILE)


class Rules:
    """One table of Tongiaki and the rules that move it on (see `Game` for the contract)."""

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
        self.phase: Phase = Phase.SETUP
        self.setup_left = 0
        self.fleet: Fleet | None = None
        self.in_hand: str | None = None
        self.hand_reason: str | None = None
        self.colonist_island: Cell | None = None
        self.ending = False
        self.final: dict[str, Any] | None = None
        self.log: list[Action] = []
        # Caches, never serialised: legal actions and per-decision results (cleared by every action),
        # islands and free cells (cleared where the table changes).
        self.listed: list[ActionValue] | None = None  # callers get fresh dicts, never the engine's own
        self._issued: ActionValue | None = None  # the last action sample_action checked in this state
        self._issued_action: tuple[Action, Action] | None = None
        self._memo: dict[str, Any] = {}  # per-decision verdicts of the rules (R9 filters, R14 turnings)
        self.frontier = Frontier(self.tiles)
        self._stack_islands = -1  # island tiles in the stack, once counted (only _draw changes the stack)
        self._island_tiles: list[Placed] | None = None
        self.chains = ChainSolver(self.tiles)
        """The R9 solver of this table, and the chain's history (`chains.seen`)."""

    # ------------------------------------------------------------------ creation

    def set_colours(self, colours: list[str], variants: dict[str, bool] | None) -> None:
        """Seat `colours` (2–6, in seat order) with the R14 `variants`; ValueError when impossible."""
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

    # ------------------------------------------------------------------ public queries

    @property
    def to_move(self) -> str | None:
        """Colour whose decision is pending, or None when the game is over."""
        return None if self.phase == Phase.OVER else self.colours[self.active]

    @property
    def version(self) -> int:
        """Number of actions applied so far."""
        return len(self.log)

    def legal_actions(self) -> list[Action]:
        """The complete list of legal actions for the pending decision (empty when the game is over)."""
        return [value.to_wire() for value in self._listing()]

    def legal_values(self) -> list[ActionValue]:
        """The legal actions as typed values, in the order `legal_actions` lists them (a fresh list of the
        engine's own values, which never change): applied as they are, they are not parsed again."""
        return list(self._listing())

    def _listing(self) -> list[ActionValue]:
        if self.phase == Phase.OVER:
            return []
        if self.listed is None:
            if self.phase in FILTERED:
                self.listed = [k for k in self.candidates() if self.allowed(k)]
            else:  # candidates are legal by construction
                self.listed = self.candidates()
        return self.listed

    def issue(self, value: ActionValue) -> Action:
        """Hand out a sampled legal action, remembering it: applying it unchanged skips re-validation."""
        self._issued = value
        action = value.to_wire()
        self._issued_action = (action, value.to_wire())  # what was handed out, and a copy to see it unchanged
        return action

    def result(self) -> dict[str, Any] | None:
        """The final scores and ranking (R13), or None while the game runs."""
        return copy_result(self.final)

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Any, colour: str | None = None) -> list[Event]:
        """Apply one action of the pending colour (its dict, or its typed value of actions.py); return the
        events it caused, in order.

        Raises IllegalAction, changing nothing, when the action is malformed, out of phase or not legal.
        When `colour` is given it must be the colour to move.
        """
        try:
            return self._apply(action, colour)
        except IllegalAction as refused:
            refused.where = self.situation()
            raise

    def situation(self) -> str:
        """The position the game is in, as an error names it: the turn, the actions applied so far, and
        the pending decision."""
        if self.phase == Phase.OVER:
            return f"turn {self.turn}, after {len(self.log)} actions, the game over"
        return (
            f"turn {self.turn}, after {len(self.log)} actions,"
            f" {self.colours[self.active]}'s {self.phase.value} decision"
        )

    def _apply(self, action: Any, colour: str | None) -> list[Event]:
        held: ActionValue | None = None  # the value itself, when the listing of this decision handed it out
        if isinstance(action, ActionValue):
            listed = self.listed
            if listed is not None:
                for candidate in listed:
                    if candidate is action:
                        held = candidate
                        break
            try:  # else checked as its dict is: a value built by hand may be ill-typed
                action = action.to_wire()
            except TypeError:  # fields that do not sort, such as an int beside a str
                raise IllegalAction("malformed", f"{show(action)} is not a well-typed action", None) from None
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", f"the game is over; {show(action)} was not applied", action)
        if colour is not None and colour != self.colours[self.active]:
            raise IllegalAction(
                "wrong_player", f"{colour!r} may not act: the decision is {self.colours[self.active]}'s", action
            )
        issued = self._issued_action
        chosen: Action | None = None
        if issued is not None and action is issued[0] and action == issued[1] and self._issued is not None:
            value = self._issued  # the action sample_action handed out, unchanged: legal and well formed
            chosen = issued[1]  # its copy, which nobody else holds, goes in the log
        elif held is not None:
            value = held  # a listed value: legal and well formed
            chosen = action  # its wire form, just made, which nobody else holds
        else:
            value = ActionValue.from_wire(action)
        if value.kind() not in ANSWERS[self.phase]:
            raise IllegalAction(
                "wrong_phase",
                f"{show(action)} does not answer the pending {self.phase.value} decision"
                f" of {self.colours[self.active]}",
                action,
            )
        if (
            value is not held
            and value != self._issued
            and not (self.listed is not None and value in self.listed)
            and not self.allowed(value)
        ):
            raise IllegalAction(
                "illegal_choice",
                f"{show(action)} is not a legal action for {self.colours[self.active]} ({self.phase.value})",
                action,
            )
        if chosen is None:
            chosen = value.to_wire()
        events: list[E.EventValue] = []
        self.log.append(chosen)
        self._do(value, events)
        self.advance(events)
        return [event.to_wire() for event in events]

    def _sole(self) -> tuple[int, ActionValue | None]:
        """How many legal actions the pending decision has, counting no further than two, and the first."""
        if self.phase == Phase.LAND:
            return self._sole_landing()
        # The candidates that are legal whatever R9 says go first: two of them answer without a search.
        surely: list[ActionValue] = []
        maybe: list[ActionValue] = []
        for value in self.candidates():
            (surely if self._surely_allowed(value) else maybe).append(value)
        if len(surely) >= 2:
            return 2, None
        n = len(surely)
        first = surely[0] if surely else None
        for value in maybe:
            if self.allowed(value):
                n += 1
                if n == 2:
                    break
                first = value
        return n, first

    def _surely_allowed(self, value: ActionValue) -> bool:
        """A cheap sufficient test of `allowed` for a candidate: a migration that draws a tile or sinks
        ends the chain whatever follows (R9)."""
        if not isinstance(value, Migrate):
            return False
        t = self.tiles[self.where[value.island]]
        danger, target = self.chains.voyage(t.cell, value.pier)
        return target is None or danger > KINDS[t.codes()[value.beach]]

    def _sole_landing(self) -> tuple[int, ActionValue | None]:
        # Straight over the placements: legal are those that escape (R9), or all when none does.
        free, placements = self.landings()
        if len(placements) == 1 or self.ending:
            return min(len(placements), 2), Land.of(placements[0])
        # Landings that leave no beach full end the chain at once (R9): two of them answer without a search.
        if not self._full_now():
            quiet = 0
            for p in placements:
                if not _fills(p, free):
                    quiet += 1
                    if quiet == 2:
                        self._memo["any_landing"] = True
                        return 2, None
        escaping = []
        for placement in placements:
            if self.landing_escapes(placement):
                escaping.append(placement)
                if len(escaping) == 2:
                    self._memo["any_landing"] = True
                    return 2, None
        if len(escaping) == 1:
            self._memo["any_landing"] = True
            return 1, Land.of(escaping[0])
        self._memo["any_landing"] = False
        return 2, None

    def landings(self) -> tuple[tuple[int, ...], tuple[landing.Landing, ...]]:
        """The free moorings of the arrived fleet's island, and every landing of the fleet there (R8)."""
        fleet = self.fleet
        assert fleet is not None
        free = self.tiles[fleet.target].free()
        return free, landing.landings(free, arrangements.code(fleet.boats))

    # ------------------------------------------------------------------ legal actions

    def candidates(self) -> list[ActionValue]:
        """Every action the pending decision could take, before the R9 filter."""
        out: list[ActionValue] = []
        phase = self.phase
        colour = self.colours[self.active]
        if phase == Phase.SETUP:
            for b in options.setup_beaches(self.tiles[self.where[TONGA]]):
                out.append(Setup(b))
        elif phase == Phase.TURN:
            islands, supply = self.islands(), self.supply[colour]
            expansions, royals = self.turn_options(colour)
            for name, beaches, take_back in options.expansion_keys(expansions, islands, colour, supply):
                out.append(Expand(name, beaches, take_back))
            for name in royals:
                out.append(Royal(name))
            out.append(Colonise())
        elif phase == Phase.RESTART:
            pairs, others = self.restarts(colour)
            for pair in pairs:
                out.append(Restart(tonga=pair))
            for name, b in others:
                out.append(Restart(island=name, beach=b))
            out.append(Colonise())
        elif phase == Phase.MIGRATE:
            for t in self.islands():
                if t.royal is None:
                    for b in t.full_beaches():
                        for pier in t.piers[b]:
                            out.append(Migrate(t.name, b, pier))
        elif phase == Phase.LAND:
            for row in self.landings()[1]:
                out.append(Land.of(row))
        elif phase == Phase.PLACE_TILE:
            for cell in self.frontier.cells():
                for rotation in range(SIDES):
                    out.append(PlaceTile(cell, rotation))
        elif phase == Phase.SETTLE:
            assert self.colonist_island is not None
            for b, free in enumerate(self.tiles[self.colonist_island].free()):
                if free > 0:
                    out.append(Settle(b))
        elif phase == Phase.TURN_TILE:
            for rotation in range(SIDES):
                out.append(TurnTile(rotation))
        return out

    def allowed(self, value: ActionValue) -> bool:
        """Whether the (well-typed) action is legal now. The one place legality lives: listing, sampling,
        validation and the engine's own auto-resolution all ask it."""
        if value.kind() not in ANSWERS[self.phase]:
            return False
        colour = self.colours[self.active]
        if isinstance(value, Setup):
            return value.beach in options.setup_beaches(self.tiles[self.where[TONGA]])
        if isinstance(value, Expand):
            return self._expansion_allowed(colour, value)
        if isinstance(value, Royal):
            return value.island in self.turn_options(colour)[1]
        if isinstance(value, Colonise):
            return True
        if isinstance(value, Restart):
            pairs, others = self.restarts(colour)
            if value.tonga is not None:
                return value.tonga in pairs
            return (value.island, value.beach) in others
        if isinstance(value, Migrate):
            t = self._island_named(value.island)
            b, pier = value.beach, value.pier
            if t is None or not 0 <= b < len(t.beaches) or not t.full(b) or pier not in t.piers[b]:
                return False
            if self._surely_allowed(value):
                return True
            verdicts: dict[Migrate, bool] = self._memo.setdefault("migrations", {})
            verdict = verdicts.get(value)
            if verdict is None:
                verdict = verdicts[value] = self.chains.migration_escapes(t.cell, b, pier)
            return verdict
        if isinstance(value, Land):
            return self._landing_allowed(value.boats)
        if isinstance(value, PlaceTile):
            return value.cell in self.frontier.cell_set() and 0 <= value.rotation < SIDES
        if isinstance(value, Settle):
            assert self.colonist_island is not None
            free = self.tiles[self.colonist_island].free()
            return 0 <= value.beach < len(free) and free[value.beach] > 0
        if isinstance(value, TurnTile):
            rotation = value.rotation
            return 0 <= rotation < SIDES and (rotation in self._good_turnings() or not self._good_turnings())
        return False  # pragma: no cover

    def _island_named(self, name: str) -> Placed | None:
        """The non-royal island tile of that name on the table, or None."""
        cell = self.where.get(name)
        if cell is None:
            return None
        t = self.tiles[cell]
        return t if t.island is not None and t.royal is None else None

    def _expansion_allowed(self, colour: str, expansion: Expand) -> bool:
        """R5: whether `expansion` is one of those `options.expansion_keys` lists."""
        name, beaches, take_back = expansion.island, expansion.beaches, expansion.take_back
        supply = self.supply[colour]
        if supply > 0:
            t = self._island_named(name)
            found = None if t is None else options.expansion_of(t, colour, supply)
            if found is None or take_back is not None:
                return False
            open_beaches, n = found
            return len(beaches) == n and len(set(beaches)) == n and all(b in open_beaches for b in beaches)
        if take_back is None or len(beaches) != 1 or (name, beaches[0]) == take_back:
            return False
        sources, targets = options.take_backs(self.islands(), colour)
        return take_back in sources and (name, beaches[0]) in targets

    def turn_options(self, colour: str) -> tuple[list[tuple[int, str, tuple[int, ...], int]], list[str]]:
        """R5 and R10: the colour's expansions and royal islands (see `options.turn_options`)."""
        may_found = self.royal_founded[colour] < MAX_ROYAL
        return options.turn_options(self.islands(), colour, self.supply[colour], may_found)

    def restarts(self, colour: str) -> tuple[list[tuple[int, ...]], list[tuple[str, int]]]:
        """R12: the colour's restarts (see `options.restarts`)."""
        tonga = self.where.get(TONGA)
        return options.restarts(None if tonga is None else self.tiles[tonga], self.islands(), self.supply[colour])

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
            self.place(self.in_hand, cell, rotation)
            if self.chains.voyage_escapes(fleet.at, fleet.heading, fleet.origin, fleet.boats):
                good.append(rotation)
            self._unput(cell)
        self._memo["turnings"] = good
        return good

    # ------------------------------------------------------------------ doing

    def _do(self, action: ActionValue, events: list[E.EventValue], auto: bool = False) -> None:
        self.listed = None
        self._issued = None
        self._issued_action = None
        self._memo.clear()
        self.chains.next_decision()
        colour = self.colours[self.active]
        if isinstance(action, Setup):
            self._add_boats(colour, TONGA, (action.beach,), "setup", events)
            self.setup_left -= 1
            self.phase = Phase.NEXT_SETUP
        elif isinstance(action, Expand):
            take_back = action.take_back
            if take_back is not None:
                src = self.tiles[self.where[take_back[0]]]
                src.take_back(take_back[1], colour)
                self.supply[colour] += 1
                events.append(E.BoatTakenBack(colour, src.name, src.cell, take_back[1]))
            self._add_boats(colour, action.island, action.beaches, "expand", events)
            self.phase = Phase.CHAIN
        elif isinstance(action, Royal):
            self._found_royal(colour, action.island, events)
            self.phase = Phase.END_TURN
        elif isinstance(action, Colonise):
            taken = self._take_all_boats(colour)
            events.append(E.Colonisation(colour, taken))
            self.hand_reason = "colonise"
            self.phase = Phase.DRAW_FREE
        elif isinstance(action, Restart):
            if action.tonga is not None:
                self._add_boats(colour, TONGA, action.tonga, "restart", events)
            else:
                assert action.island is not None and action.beach is not None
                self._add_boats(colour, action.island, (action.beach,), "restart", events)
            self.phase = Phase.CHAIN
        elif isinstance(action, Migrate):
            self._depart(action, events, auto)
        elif isinstance(action, Land):
            self._land(action.boats, events, auto)
        elif isinstance(action, PlaceTile):
            assert self.in_hand is not None
            name = self.in_hand
            cell = action.cell
            self.place(name, cell, action.rotation)
            self.in_hand = None
            events.append(_placed_event(self.tiles[cell], "free", auto))
            if isinstance(TILES[name], Ocean):
                self.phase = Phase.FINISH if self.ending else Phase.DRAW_FREE
            elif self.hand_reason == "colonise":
                self.colonist_island = cell  # R13: the colonist's boat goes on it even when it is the last
                self.phase = Phase.SETTLE
            else:
                self.hand_reason = None
                self.phase = Phase.FINISH if self.ending else Phase.END_TURN
        elif isinstance(action, Settle):
            assert self.colonist_island is not None
            self._add_boats(colour, self.tiles[self.colonist_island].name, (action.beach,), "settle", events)
            self.colonist_island = None
            self.hand_reason = None
            self.phase = Phase.FINISH if self.ending else Phase.END_TURN
        elif isinstance(action, TurnTile):
            assert self.fleet is not None and self.in_hand is not None
            cell = self.fleet.next
            self.place(self.in_hand, cell, action.rotation)
            self.in_hand = None
            events.append(_placed_event(self.tiles[cell], "turned", auto))
            self.phase = Phase.ENTER
        else:  # pragma: no cover - ActionValue.from_wire makes no other kind
            raise AssertionError(action)

    def advance(self, events: list[E.EventValue]) -> None:
        """Run the automatic steps until a colour must decide or the game is over."""
        while True:
            phase = self.phase
            if phase == Phase.NEXT_SETUP:
                if self.setup_left == 0:
                    self._pass_turn(events, to=self.first)
                else:
                    n = len(self.colours)
                    placed = 2 * n - self.setup_left
                    self.active = (self.first + placed) % n
                    self.phase = Phase.SETUP
            elif phase == Phase.CHAIN:
                self._chain_step(events)
            elif phase == Phase.SAIL:
                self._sail(events)
            elif phase == Phase.ENTER:
                self._enter(events)
            elif phase == Phase.ARRIVE:
                self._arrive(events)
            elif phase == Phase.DRAW_FREE:
                self._draw_free(events)
            elif phase == Phase.END_TURN:
                self._pass_turn(events, to=(self.active + 1) % len(self.colours))
            elif phase == Phase.FINISH:
                self._finish(events)
            else:
                return

    def _pass_turn(self, events: list[E.EventValue], to: int) -> None:
        previous = self.colours[self.active]
        self.active = to
        self.turn += 1
        self.chains.forget_history()
        colour = self.colours[to]
        events.append(E.TurnPassed(previous, colour, self.turn))
        on_board = any(colour in t.counts() for t in self.islands())
        self.phase = Phase.TURN if on_board else Phase.RESTART  # R12: no boat on the board

    # ------------------------------------------------------------------ boats

    def _add_boats(
        self, colour: str, island: str, beaches: tuple[int, ...], reason: str, events: list[E.EventValue]
    ) -> None:
        t = self.tiles[self.where[island]]
        t.add_boats([(colour, b) for b in beaches])
        self.supply[colour] -= len(beaches)
        events.append(E.BoatsPlaced(colour, island, t.cell, beaches, reason))

    def _take_all_boats(self, colour: str) -> int:
        """R11: every boat of the colour off the board (royal boats stay)."""
        taken = 0
        for t in self.islands():
            taken += t.remove_colour(colour)
        self.supply[colour] += taken
        return taken

    def _return(self, boats: list[str]) -> None:
        for c in boats:
            self.supply[c] += 1

    def _found_royal(self, colour: str, island: str, events: list[E.EventValue]) -> None:
        t = self.tiles[self.where[island]]
        boats = t.crown(colour)
        self.supply[colour] += boats - 1  # one stands on the mask
        self.royal_founded[colour] += 1
        self._tile_changed(t.cell, placed=False)  # no longer in chains; fleets reaching it are turned back (R10)
        events.append(E.RoyalFounded(colour, island, t.cell, boats - 1))

    # ------------------------------------------------------------------ tiles

    def place(self, name: str, cell: Cell, rotation: int) -> None:
        """Put the tile `name` on the empty `cell`, turned by `rotation` (R2, R7, R9, R11; and to build a
        table from a position or from bytes)."""
        t = Placed(name, cell, rotation)
        self.tiles[cell] = t
        self.where[name] = cell
        self.frontier.placed(cell)
        if t.island is not None:
            self._island_tiles = None
        self._tile_changed(cell, placed=True)

    def _unput(self, cell: Cell) -> None:
        del self.where[self.tiles.pop(cell).name]
        self._island_tiles = None
        self.frontier.removed()
        self._tile_changed(cell, placed=False)

    def _tile_changed(self, cell: Cell, placed: bool) -> None:
        """A tile was placed on `cell`, or removed from it, or made a royal island: the decision's verdicts
        go, and the R9 solver forgets what the change touches."""
        self._memo.clear()
        self.chains.tile_changed(cell, placed)

    def _draw(self, events: list[E.EventValue]) -> str:
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
        value = tile.value if isinstance(tile, Island) else None
        left = {"islands": islands_left, "oceans": oceans_left}
        events.append(E.TileDrawn(name, "island" if is_island else "ocean", value, left))
        self.chains.forget_history()
        return name

    def _draw_free(self, events: list[E.EventValue]) -> None:
        """R9 redraw / R11 colonisation: draw the next tile; the colour places it freely."""
        self.in_hand = self._draw(events)
        self.phase = Phase.PLACE_TILE

    def islands(self) -> list[Placed]:
        """The island tiles on the table (cached until an island is placed or removed)."""
        if self._island_tiles is None:
            self._island_tiles = [t for t in self.tiles.values() if t.island is not None]
        return self._island_tiles

    # ------------------------------------------------------------------ chain reaction (R6, R9)

    def _chain_step(self, events: list[E.EventValue]) -> None:
        if self.ending:
            self.phase = Phase.FINISH
            return
        if not self.any_full():
            self.phase = Phase.END_TURN
            return
        _topo, arr, _full = self.chains.now()
        self.chains.see(arr)
        self.phase = Phase.MIGRATE
        n, first = self._sole()
        if n == 0:
            self._endless(arr, events)
        elif n == 1:
            assert first is not None
            self._do(first, events, auto=True)

    def any_full(self) -> bool:
        """R6: some beach on the table is full."""
        return any(t.full_beaches() for t in self.islands())

    def _endless(self, arr: Arrangement, events: list[E.EventValue]) -> None:
        """R9: every option leads into an endless chain. Its islands go, with their boats."""
        cells = self.chains.endless_islands(arr)
        names = sorted(self.tiles[c].name for c in cells)
        events.append(E.EndlessChain(tuple(names)))
        for cell in sorted(cells):
            t = self.tiles[cell]
            boats = [c for b in t.beaches for c in b]
            self._return(boats)
            self._unput(cell)
            self.removed.append(t.name)
            events.append(E.IslandRemoved(t.name, cell, tuple(boats)))
        colour = self.colours[self.active]
        islands = self.islands()
        if not islands or not any(colour in b for t in islands for b in t.beaches):
            self.hand_reason = "redraw"
            self.phase = Phase.DRAW_FREE
        else:
            self.chains.forget_history()
            self.phase = Phase.CHAIN  # beaches that only fed the loop may still be full

    # ------------------------------------------------------------------ voyage (R6, R7)

    def _depart(self, action: Migrate, events: list[E.EventValue], auto: bool) -> None:
        t = self.tiles[self.where[action.island]]
        boats = t.sail(action.beach)
        colours = len(set(boats))
        events.append(E.FleetDeparted(t.name, t.cell, action.beach, action.pier, tuple(boats), colours, auto))
        self.fleet = Fleet(boats, colours, t.cell, action.pier)
        self.phase = Phase.SAIL

    def _sail(self, events: list[E.EventValue]) -> None:
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
                self.phase = Phase.TURN_TILE
                n, first = self._sole()
                if n == 1:
                    assert first is not None
                    self._do(first, events, auto=True)
                return
            self.place(name, nxt, forced_rotation(fleet.heading))
            events.append(_placed_event(self.tiles[nxt], "forced", True))
        self.phase = Phase.ENTER

    def _enter(self, events: list[E.EventValue]) -> None:
        fleet = self.fleet
        assert fleet is not None
        nxt = fleet.next
        t = self.tiles[nxt]
        if t.island is not None:
            if t.royal is not None:  # R10: turned back to the departure island
                origin = self.tiles[fleet.origin]
                events.append(E.TurnedBack(nxt, origin.name, origin.cell))
                fleet.target = origin.cell
            else:
                fleet.target = nxt
            self.phase = Phase.ARRIVE
            return
        if self.ending:
            # R13: the fleet drew the last ocean tile; it stays on it at sea and scores nothing.
            self.at_sea.append((nxt, fleet.boats))
            events.append(E.FleetAtSea(nxt, tuple(fleet.boats)))
            self.fleet = None
            self.phase = Phase.FINISH
            return
        entry = opposite(fleet.heading)
        exit_dir, danger = t.exits[entry]
        colours = fleet.colours
        events.append(E.PathFollowed(nxt, entry, exit_dir, danger, colours))
        passed = danger <= colours
        events.append(E.Crossing(nxt, danger, colours, passed))
        if not passed:
            self._return(fleet.boats)
            events.append(E.Sunk(nxt, tuple(fleet.boats)))
            self.fleet = None
            self.chains.forget_history()
            self.phase = Phase.CHAIN
            return
        fleet.at = nxt
        fleet.heading = exit_dir
        self.phase = Phase.SAIL

    def _arrive(self, events: list[E.EventValue]) -> None:
        fleet = self.fleet
        assert fleet is not None
        target = self.tiles[fleet.target]
        events.append(E.FleetArrived(target.name, target.cell, tuple(fleet.boats)))
        self.phase = Phase.LAND
        n, first = self._sole()
        if n == 1:
            assert first is not None
            self._do(first, events, auto=True)

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
        return self.landing_escapes(placement) or not self.any_landing_escapes()

    def landing_escapes(self, placement: landing.Landing) -> bool:
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
        return self.chains.landing_escapes(fleet.target, placement)

    def _full_now(self) -> bool:
        memo = self._memo.get("full_now")
        if memo is None:
            memo = self._memo["full_now"] = self.any_full()
        return bool(memo)

    def any_landing_escapes(self) -> bool:
        memo = self._memo.get("any_landing")
        if memo is None:
            memo = any(self.landing_escapes(p) for p in self.landings()[1])
            self._memo["any_landing"] = memo
        return bool(memo)

    def _land(self, pairs: tuple[tuple[str, int], ...], events: list[E.EventValue], auto: bool) -> None:
        fleet = self.fleet
        assert fleet is not None
        target = self.tiles[fleet.target]
        target.add_boats(pairs)
        left = list(fleet.boats)
        for colour, _beach in pairs:
            left.remove(colour)
        self._return(left)
        events.append(E.Landed(target.name, target.cell, pairs, tuple(left), auto))
        self.fleet = None
        self.phase = Phase.FINISH if self.ending else Phase.CHAIN

    # ------------------------------------------------------------------ the end (R13)

    def scores(self) -> dict[str, dict[str, int]]:
        """Per colour: points, islands present on (royal included), boats on the board (royal = 1)."""
        return scores(self.colours, self.islands(), self.at_sea)

    def _finish(self, events: list[E.EventValue]) -> None:
        final = self.final = final_result(self.colours, self.variants["two_colours"], self.scores())
        self.phase = Phase.OVER
        self.fleet = None
        self.listed = []
        events.append(E.GameOver(final))  # its wire form is a copy


def _placed_event(t: Placed, how: str, auto: bool) -> E.TilePlaced:
    kind = "island" if t.island is not None else "ocean"
    # drawn as the view draws it, so a client needs no catalogue of its own
    return E.TilePlaced(t.name, kind, t.cell, t.rotation, how, auto, tile_view(t))


def _fills(placement: landing.Landing, free: tuple[int, ...]) -> bool:
    """Whether the landing fills a beach (R6)."""
    return any(added and (added & COUNT) == free[b] for b, added in enumerate(placement))
