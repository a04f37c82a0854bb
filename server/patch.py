"""The view patch of docs/protocol.md §5 (protocol 2): a change of the view as nested lists of
(step, what) pairs, with the view's key names sent as their numbers in KEYS.

A patch is `{"=": view}` (the whole view), or the change of the root map. A change of a map or an array
is a flat list `[step, what, step, what, ...]` applied in order. A step into a map is a key: its number in
KEYS when it has one, else the key itself (a string); a step into an array is an index, or "@" whose
`what` is a list of splices `[index, remove, item...]` (as JavaScript's Array.splice). `what` is a scalar
(put it there), a list (the change of what is there), `{"=": value}` (put that map or array there) or `{}`
(delete that map key). Putting at index == length appends.

It sits below the layers: the authority and the replays build patches, the realtime layer sends them.
"""

from __future__ import annotations

import copy
from difflib import SequenceMatcher
from typing import Any

import msgpack  # type: ignore[import-untyped]

KEYS = (
    # the view (docs/engine.md)
    "colours", "variants", "phase", "turn", "active", "tiles", "players", "stack", "removed", "fleet",
    "at_sea", "in_hand", "hand", "pending", "legal", "result", "you",
    # tiles
    "tile", "rotation", "kind", "value", "beaches", "royal", "cell", "paths", "moorings", "piers", "boats",
    # players and the stack
    "colour", "supply", "on_board", "royal_left", "score", "islands", "oceans", "island_values",
    "ocean_dangers", "remaining",
    # the fleet and the pending decision
    "from", "reason", "full", "island", "beach", "free",
    # the result and the variants
    "scores", "ranking", "winners", "decided_by", "teams", "team_ranking", "two_colours", "free_follow_up",
)
"""Key numbers of protocol 2: a map key listed here is sent as its index in patches. Fixed for the
protocol version (docs/protocol.md §5 lists the same table; keys not in it are sent as they are)."""

CODE = {key: i for i, key in enumerate(KEYS)}

Change = list[Any]


def diff(old: Any, new: Any) -> Any:
    """The patch that turns view `old` into view `new` (plain data: dict, list, str, int, float, bool,
    None); `old` None gives the whole view."""
    if isinstance(old, dict) and isinstance(new, dict):
        return _map(old, new)
    return {"=": new}


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b  # True == 1 in Python, but not on the wire


def _size(value: Any) -> int:
    return len(msgpack.packb(value))


def _put(value: Any) -> Any:
    return {"=": value} if isinstance(value, dict | list) else value


def _change(old: Any, new: Any) -> Any:
    """What turns one node into another that differs: its change, or the new value whole when at least
    half of its entries changed and the whole is no longer (an array that changed more than it stayed, a
    map whose every field changed)."""
    if isinstance(old, dict) and isinstance(new, dict):
        change = _map(old, new)
    elif isinstance(old, list) and isinstance(new, list):
        change = _array(old, new)
    else:
        return _put(new)
    if len(change) == 2 and not isinstance(change[1], dict | list):
        return change   # one scalar put is always shorter than the whole
    if len(change) < len(new) and change[0] != "@":
        return change   # fewer than half of its entries changed (measuring both would cost more)
    whole = {"=": new}
    return whole if _size(whole) <= _size(change) else change


def _map(old: dict[str, Any], new: dict[str, Any]) -> Change:
    change: Change = []
    for key, value in new.items():
        if key not in old:
            change += [CODE.get(key, key), _put(value)]
        elif not _same(old[key], value):
            change += [CODE.get(key, key), _change(old[key], value)]
    for key in old:
        if key not in new:
            change += [CODE.get(key, key), {}]
    return change


def _array(old: list[Any], new: list[Any]) -> Change:
    """Elements are aligned (a tile placed in the sorted table shifts those after it; a tile drawn
    leaves the sorted `remaining`): insertions and removals are splices, the rest changes in place."""
    n, m = len(old), len(new)
    start = 0
    while start < n and start < m and _same(old[start], new[start]):
        start += 1
    end = 0
    while end < n - start and end < m - start and _same(old[n - 1 - end], new[m - 1 - end]):
        end += 1
    a, b = old[start:n - end], new[start:m - end]
    change: Change = []
    if len(a) == len(b):   # changed in place (the common case: boats on a beach, a player's supply)
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            if not _same(x, y):
                change += [start + k, _change(x, y)]
        return change
    if not a or not b:   # only added or only taken away (a boat onto a beach or off it, a tile placed)
        return ["@", [[start, 0, *b] if b else [start, len(a)]]]
    splices: list[list[Any]] = []
    keys_a = [msgpack.packb(x) for x in a]
    keys_b = [msgpack.packb(y) for y in b]
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, keys_a, keys_b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        paired = min(i2 - i1, j2 - j1)
        for k in range(paired):   # after the splices, old a[i1 + k] stands at new index start + j1 + k
            change += [start + j1 + k, _change(a[i1 + k], b[j1 + k])]
        if i2 - i1 > paired:
            splices.append([start + j1 + paired, i2 - i1 - paired])
        if j2 - j1 > paired:
            splices.append([start + j1 + paired, 0, *b[j1 + paired:j2]])
    return ["@", splices, *change] if splices else change


def apply(view: Any, patch: Any, keys: tuple[str, ...] = KEYS) -> Any:
    """Applies a patch to a copy of `view` and returns it (what a client does)."""
    if isinstance(patch, dict):
        return copy.deepcopy(patch["="])
    view = copy.deepcopy(view)
    _apply(view, patch, keys)
    return view


def _apply(node: Any, change: Change, keys: tuple[str, ...]) -> None:
    if not isinstance(change, list) or len(change) % 2:
        raise ValueError(f"a change is a list of (step, what) pairs: {change!r}")
    for i in range(0, len(change), 2):
        step, what = change[i], change[i + 1]
        if isinstance(node, list):
            if step == "@":
                for at, remove, *items in what:
                    if not 0 <= at <= len(node):
                        raise ValueError(f"splice at {at} of an array of {len(node)}")
                    node[at:at + remove] = copy.deepcopy(items)
                continue
            if not isinstance(step, int) or not 0 <= step <= len(node):
                raise ValueError(f"no index {step!r} in an array of {len(node)}")
        elif isinstance(node, dict):
            if isinstance(step, int):
                step = keys[step]
        else:
            raise ValueError(f"step {step!r} into a scalar")
        if isinstance(what, list):
            _apply(node[step], what, keys)
            continue
        if isinstance(what, dict):
            if not what:
                del node[step]
                continue
            what = copy.deepcopy(what["="])
        if isinstance(node, list) and step == len(node):
            node.append(what)
        else:
            node[step] = what
